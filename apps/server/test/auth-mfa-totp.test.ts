import { ManualClock } from '@plenum/core';
import { emailOutbox, loginThrottle, recoveryCodes, totpFactors } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, siweMessage, type TestUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * Two-factor sign-in with TOTP and recovery codes (docs/accounts.md, "Two-factor sign-in"), over REST:
 * set-up, sign-in in two steps (password or SIWE first), replays, the throttle, turning it off, and the
 * admins' rule. Time is a ManualClock: codes are made for the server's instant, never waited for.
 */
const ADMIN = 'mfa-admin@example.org';
const clock = new ManualClock(new Date('2026-11-27T12:00:10Z'));
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { RATE_LIMIT_DISABLED: 'true', ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const codeAt = (secret: string, at = clock.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });
const nextStep = () => clock.advance(30_000);
const mailsTo = async (email: string) =>
  (await t.app.svc.db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).map((m) => m.subject);
const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

/** an active user with TOTP confirmed: its secret and recovery codes */
async function withTotp(user?: TestUser) {
  const u = user ?? (await activeUser(api));
  const start = await api.post('/auth/mfa/totp', undefined, { token: u.token });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const secret = start.body.secret as string;
  const confirm = await api.post('/auth/mfa/totp/confirm', { code: codeAt(secret) }, { token: u.token });
  expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
  nextStep(); // the confirming code is spent: sign-ins use the next step's
  return { user: u, secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

const password = (u: TestUser) => api.post('/auth/login', { email: u.email, password: u.password });
const challenge = async (u: TestUser) => {
  const res = await password(u);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
  return res.body.mfaToken as string;
};
const finish = (mfaToken: string, answer: { code?: string; recoveryCode?: string }) =>
  api.post('/auth/login/mfa', { mfaToken, ...answer });

describe('setting up TOTP', () => {
  it('gives a secret and otpauth URL, confirms with a code, answers ten recovery codes once, ends the other sessions and mails the owner', async () => {
    const user = await activeUser(api);
    const other = (await password(user)).body.token as string;
    const before = await api.get('/auth/mfa', { token: user.token });
    expect(before.body).toEqual({ totp: { enabled: false, confirmedAt: null }, recoveryCodesLeft: 0 });

    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    expect(start.status).toBe(200);
    const secret = start.body.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(start.body.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Plenum');
    expect(decodeURIComponent(url.pathname)).toContain(user.email);
    // a pending enrolment is no factor yet: a password alone still signs in
    expect((await password(user)).body.token).toEqual(expect.any(String));

    const wrong = await api.post('/auth/mfa/totp/confirm', { code: '000000' }, { token: user.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.reason).toBe('INVALID_MFA_CODE');

    const confirmed = await api.post(
      '/auth/mfa/totp/confirm',
      { code: codeAt(secret) },
      { token: user.token },
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    // the secret and the codes are not stored as given
    const [row] = await t.app.svc.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row!.secret).not.toContain(secret);
    expect(row!.confirmedAt).not.toBeNull();
    const stored = await t.app.svc.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const s of stored) for (const c of codes) expect(s.codeHash).not.toContain(c.replace('-', ''));

    expect((await api.get('/auth/me', { token: other })).status).toBe(401);
    expect((await api.get('/auth/me', { token: user.token })).status).toBe(200);
    expect(await mailsTo(user.email)).toContain('Two-factor sign-in is on');
    const status = await api.get('/auth/mfa', { token: user.token });
    expect(status.body).toMatchObject({ totp: { enabled: true }, recoveryCodesLeft: 10 });

    const again = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('TOTP_ALREADY_ENABLED');
  });

  it('refuses a confirm without a set-up, a malformed code, and an access token', async () => {
    const user = await activeUser(api);
    const none = await api.post('/auth/mfa/totp/confirm', { code: '123456' }, { token: user.token });
    expect(none.status).toBe(409);
    expect(none.body.reason).toBe('NO_TOTP_ENROLMENT');
    const malformed = await api.post('/auth/mfa/totp/confirm', { code: '12ab' }, { token: user.token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.issues[0].path).toBe('code');
    // even with every scope: a token never manages factors
    const pat = await api.post(
      '/auth/tokens',
      { name: 'script', scopes: ['read', 'governance', 'storage', 'account'] },
      { token: user.token },
    );
    const byToken = await api.post('/auth/mfa/totp', undefined, { token: pat.body.token });
    expect(byToken.status).toBe(403);
    expect(byToken.body.reason).toBe('SESSION_REQUIRED');
  });
});

describe('signing in with a second factor', () => {
  it('answers a challenge and no session to the password, then the session (and cookie) to a code; a replayed code is refused', async () => {
    const { user, secret } = await withTotp();
    const first = await password(user);
    expect(first.status).toBe(200);
    expect(first.body.token).toBeUndefined();
    expect(first.headers.get('set-cookie')).toBeNull();
    const code = codeAt(secret);

    const done = await finish(first.body.mfaToken, { code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.user.id).toBe(user.id);
    expect(String(done.headers.get('set-cookie'))).toContain('plenum_session=');
    expect((await api.get('/auth/me', { token: done.body.token })).status).toBe(200);

    // the challenge is spent; the same code on a new challenge is a replay
    const spent = await finish(first.body.mfaToken, { code });
    expect(spent.status).toBe(401);
    expect(spent.body.reason).toBe('MFA_TOKEN_INVALID');
    const replay = await finish(await challenge(user), { code });
    expect(replay.status).toBe(401);
    expect(replay.body.reason).toBe('INVALID_MFA_CODE');
    // the previous step's code is within the window but older than the one used: refused too
    nextStep();
    const next = await challenge(user);
    expect(
      (await finish(next, { code: codeAt(secret, new Date(clock.now().getTime() - 60_000)) })).status,
    ).toBe(401);
    // the wrong code left the challenge: the right one still works with it
    expect((await finish(next, { code: codeAt(secret) })).status).toBe(200);
  });

  it('takes each recovery code once, in any case and spacing', async () => {
    const { user, recoveryCodes: codes } = await withTotp();
    const typed = ` ${codes[0]!.toUpperCase().replace('-', ' ')} `;
    expect((await finish(await challenge(user), { recoveryCode: typed })).status).toBe(200);
    const again = await finish(await challenge(user), { recoveryCode: codes[0]! });
    expect(again.status).toBe(401);
    expect(again.body.reason).toBe('INVALID_MFA_CODE');
    expect((await api.get('/auth/mfa', { token: user.token })).body.recoveryCodesLeft).toBe(9);
  });

  it('refuses an unknown or expired mfaToken, and both or neither answer', async () => {
    const { user, secret } = await withTotp();
    const unknown = await finish('mfa_nothing', { code: codeAt(secret) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.reason).toBe('MFA_TOKEN_INVALID');
    const both = await finish(await challenge(user), { code: codeAt(secret), recoveryCode: 'aaaaa-bbbbb' });
    expect(both.status).toBe(400);
    const neither = await finish(await challenge(user), {});
    expect(neither.status).toBe(400);
    const late = await challenge(user);
    clock.advance(5 * 60_000 + 1000);
    const expired = await finish(late, { code: codeAt(secret) });
    expect(expired.status).toBe(401);
    expect(expired.body.reason).toBe('MFA_TOKEN_INVALID');
  });

  it('asks a SIWE sign-in of such an account for the code too', async () => {
    const { user, secret } = await withTotp();
    // the set-up ended other sessions but kept this one: link a wallet with it
    const wallet = await linkWallet(api, user);
    const siwe = await api.post('/auth/siwe', await siweMessage(api, wallet));
    expect(siwe.status).toBe(200);
    expect(siwe.body).toMatchObject({ mfaRequired: true });
    expect(siwe.body.token).toBeUndefined();
    expect((await finish(siwe.body.mfaToken, { code: codeAt(secret) })).status).toBe(200);
  });

  it('counts wrong codes toward the account throttle that passwords use', async () => {
    const { user, secret } = await withTotp();
    const mfaToken = await challenge(user);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await finish(mfaToken, { code: '000000' })).status);
    // five free failures (LOGIN_FAILURES_BEFORE_BACKOFF), the sixth locks, the seventh is refused unchecked
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const locked = await finish(mfaToken, { code: codeAt(secret) });
    expect(locked.status).toBe(429);
    expect(locked.body.reason).toBe('LOGIN_THROTTLED');
    clock.advance(2000);
    expect((await finish(mfaToken, { code: codeAt(secret) })).status).toBe(200);
  });

  it('leaves personal access tokens as they are', async () => {
    const user = await activeUser(api);
    const pat = (await api.post('/auth/tokens', { name: 'kubo' }, { token: user.token })).body
      .token as string;
    await withTotp(user);
    expect((await api.get('/auth/me', { token: pat })).status).toBe(200);
  });
});

describe('at once (the same answer many times)', () => {
  // every attempt counts toward the account's throttle before its code is checked, so some of a burst
  // are refused unchecked (429); of those checked, exactly one may win
  const refusedOrWrong = (counts: Record<number, number>) => (counts[401] ?? 0) + (counts[429] ?? 0);
  const unlock = () => t.app.svc.db.delete(loginThrottle);

  it('gives one session for one challenge answered ten times at once', async () => {
    const { user, secret } = await withTotp();
    const mfaToken = await challenge(user);
    const code = codeAt(secret);
    const answers = await Promise.all(Array.from({ length: 10 }, () => finish(mfaToken, { code })));
    const counts = tally(answers.map((a) => a.status));
    expect(counts[200]).toBe(1);
    expect(refusedOrWrong(counts)).toBe(9);
  });

  it('takes one code once across ten challenges at once, and one recovery code once', async () => {
    const { user, secret, recoveryCodes: codes } = await withTotp();
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push(await challenge(user));
    const code = codeAt(secret);
    const byCode = await Promise.all(tokens.map((m) => finish(m, { code })));
    const counts = tally(byCode.map((a) => a.status));
    expect(counts[200]).toBe(1);
    expect(refusedOrWrong(counts)).toBe(9);
    await unlock();
    const left = byCode.flatMap((a, i) => (a.status === 200 ? [] : [tokens[i]!]));
    const byRecovery = await Promise.all(left.map((m) => finish(m, { recoveryCode: codes[1]! })));
    const recovered = tally(byRecovery.map((a) => a.status));
    expect(recovered[200]).toBe(1);
    expect(refusedOrWrong(recovered)).toBe(8);
    expect((await api.get('/auth/mfa', { token: user.token })).body.recoveryCodesLeft).toBe(9);
  });
});

describe('turning TOTP off and renewing recovery codes', () => {
  it('needs a current code or a recovery code (DELETE with a JSON body), then a password alone signs in; the owner is mailed', async () => {
    const { user, secret, recoveryCodes: codes } = await withTotp();
    const wrong = await api.request('DELETE', '/auth/mfa/totp', { code: '000000' }, { token: user.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.reason).toBe('INVALID_MFA_CODE');

    const renewed = await api.post(
      '/auth/mfa/recovery-codes',
      { code: codeAt(secret) },
      { token: user.token },
    );
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.recoveryCodes as string[];
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    // the old codes are gone
    expect((await finish(await challenge(user), { recoveryCode: codes[0]! })).status).toBe(401);

    const off = await api.request('DELETE', '/auth/mfa/totp', { code: fresh[0]! }, { token: user.token });
    expect(off.status, JSON.stringify(off.body)).toBe(204);
    expect((await password(user)).body.token).toEqual(expect.any(String));
    expect(await mailsTo(user.email)).toEqual(
      expect.arrayContaining([
        'Two-factor sign-in is on',
        'New recovery codes for your Plenum account',
        'Two-factor sign-in is off',
      ]),
    );
    const notOn = await api.request(
      'DELETE',
      '/auth/mfa/totp',
      { code: codeAt(secret) },
      { token: user.token },
    );
    expect(notOn.status).toBe(409);
    expect(notOn.body.reason).toBe('TOTP_NOT_ENABLED');
  });

  it('takes the code from the query string when a client sends no DELETE body', async () => {
    const { user, secret } = await withTotp();
    const off = await api.delete(`/auth/mfa/totp?code=${codeAt(secret)}`, { token: user.token });
    expect(off.status, JSON.stringify(off.body)).toBe(204);
  });
});

describe('MFA_REQUIRED_FOR_ADMINS', () => {
  let strict: TestApp;
  let sapi: ApiClient;
  beforeAll(async () => {
    strict = await startTestApp({
      clock,
      env: { RATE_LIMIT_DISABLED: 'true', ADMIN_EMAILS: ADMIN, MFA_REQUIRED_FOR_ADMINS: 'true' },
    });
    sapi = apiClient(strict.url);
  });
  afterAll(() => strict?.close());

  it('opens only the set-up to an admin without a second factor; after it, everything', async () => {
    const admin = await activeUser(sapi, { email: ADMIN });
    const refused = await sapi.get('/admin/users', { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('MFA_ENROLMENT_REQUIRED');
    const write = await sapi.post('/daos', { name: 'x' }, { token: admin.token });
    expect(write.status).toBe(403);
    expect(write.body.reason).toBe('MFA_ENROLMENT_REQUIRED');
    expect((await sapi.get('/auth/me', { token: admin.token })).status).toBe(200);
    // a member is not concerned
    const member = await activeUser(sapi);
    expect((await sapi.get('/auth/sessions', { token: member.token })).status).toBe(200);

    const start = await sapi.post('/auth/mfa/totp', undefined, { token: admin.token });
    expect(start.status).toBe(200);
    const confirm = await sapi.post(
      '/auth/mfa/totp/confirm',
      { code: codeAt(start.body.secret) },
      { token: admin.token },
    );
    expect(confirm.status).toBe(200);
    expect((await sapi.get('/admin/users', { token: admin.token })).status).toBe(200);
  });
});
