import { Writable } from 'node:stream';
import { createLogger, ManualClock } from '@plenum/core';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMailFor, resetMailFor } from './support/accounts';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * No secret of an account reaches the logs (docs/operations.md, "Logs"; docs/accounts.md): the app logs at
 * its most detailed level while a person goes through every flow that hands out or takes a secret
 * (password, session and access tokens, mailed links' tokens, the TOTP key, recovery codes, the mfaToken,
 * a code sent in a DELETE's query), right and wrong; then the log is searched for each of them.
 */
const clock = new ManualClock(new Date('2026-11-27T12:00:10Z'));
const lines: string[] = [];
const secrets = new Map<string, string>();
const keep = (what: string, value: unknown) => {
  expect(typeof value, what).toBe('string');
  secrets.set(`${what} (${secrets.size})`, value as string);
  return value as string;
};
let t: TestApp;
let api: ApiClient;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  t = await startTestApp({ clock, logger: () => createLogger({ level: 'trace', destination }) });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const codeAt = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now().getTime() });

describe('secrets in the logs', () => {
  it('none of the secrets the account flows hand out or take is logged, at the most detailed level', async () => {
    const user = await activeUser(api, { email: uniqueEmail('logs') });
    keep('password', user.password);
    keep('session token', user.token);
    const auth = { token: user.token };

    // an access token
    const created = await api.post('/auth/tokens', { name: 'ci' }, auth);
    expect(created.status).toBe(201);
    keep('access token', created.body.token);

    // TOTP: its key, the otpauth URL, the confirming code, the recovery codes
    const start = await api.post('/auth/mfa/totp', undefined, auth);
    expect(start.status).toBe(200);
    const secret = keep('TOTP key', start.body.secret);
    keep('otpauth URL', start.body.otpauthUrl);
    expect((await api.post('/auth/mfa/totp/confirm', { code: '000000' }, auth)).status).toBe(400);
    const code = codeAt(secret);
    const confirm = await api.post('/auth/mfa/totp/confirm', { code }, auth);
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    const recovery = (confirm.body.recoveryCodes as string[]).map((c) => keep('recovery code', c));
    clock.advance(30_000);

    // a sign-in in two steps: the mfaToken, a wrong code, then a recovery code
    const first = await api.post('/auth/login', { email: user.email, password: user.password });
    expect(first.body.mfaRequired).toBe(true);
    const mfaToken = keep('mfaToken', first.body.mfaToken);
    expect((await api.post('/auth/login/mfa', { mfaToken, recoveryCode: 'aaaaa-bbbbb' })).status).toBe(401);
    const second = await api.post('/auth/login/mfa', { mfaToken, recoveryCode: recovery[0] });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const session = keep('second session token', second.body.token);

    // new recovery codes, then TOTP off with a code in the DELETE's query string
    const renewed = await api.post('/auth/mfa/recovery-codes', { code: recovery[1] }, { token: session });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const fresh = (renewed.body.recoveryCodes as string[]).map((c) => keep('renewed recovery code', c));
    const off = await api.request(
      'DELETE',
      `/auth/mfa/totp?code=${encodeURIComponent(fresh[0] as string)}`,
      undefined,
      {
        token: session,
      },
    );
    expect(off.status, JSON.stringify(off.body)).toBe(204);

    // a wrong password, a password change, a mailed reset and its token
    expect((await api.post('/auth/login', { email: user.email, password: 'Wrong-Password-1' })).status).toBe(
      401,
    );
    const changed = keep('changed password', 'Changed-Password-7');
    const change = await api.post(
      '/auth/password',
      { currentPassword: user.password, newPassword: changed },
      { token: session },
    );
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect((await api.post('/auth/password-reset', { email: user.email })).status).toBe(202);
    const reset = await resetMailFor(api, user.email);
    keep('reset token', reset.token);
    const newest = keep('reset password', 'Reset-Password-8');
    const resetDone = await api.post('/auth/password-reset/confirm', {
      token: reset.token,
      newPassword: newest,
    });
    expect(resetDone.status, JSON.stringify(resetDone.body)).toBe(200);

    // an email change: the link to the new address and the undo link to the old one
    const signedIn = await api.post('/auth/login', { email: user.email, password: newest });
    const third = keep('third session token', signedIn.body.token);
    const newEmail = uniqueEmail('logs-new');
    expect((await api.post('/auth/email', { newEmail, password: newest }, { token: third })).status).toBe(
      202,
    );
    const confirmation = keep(
      'email confirmation token',
      (await linkMailFor(api, newEmail, 'confirm-email')).token,
    );
    expect((await api.post('/auth/email/confirm', { token: confirmation })).status).toBe(200);
    const undo = keep('email undo token', (await linkMailFor(api, user.email, 'undo-email-change')).token);
    expect((await api.post('/auth/email/undo', { token: undo })).status).toBe(200);

    const log = lines.join('');
    // the flows were logged (the search below searches something)
    expect(log).toContain('"path":"/auth/login/mfa"');
    expect(log).toContain('"path":"/auth/mfa/totp"');
    for (const [what, value] of secrets) expect(log.includes(value), `${what} is in the log`).toBe(false);
    // a six-digit code is too short to search for as such: as a JSON string or a query value it is not there
    expect(log).not.toContain(`"${code}"`);
    expect(log).not.toContain(`=${code}`);
  });
});
