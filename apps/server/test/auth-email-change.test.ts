import { createHash } from 'node:crypto';
import type { AppRouter } from '@plenum/api';
import { ManualClock, NO_PASSWORD } from '@plenum/core';
import { emailChanges, users } from '@plenum/db';
import { createTRPCClient, httpLink } from '@trpc/client';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMailCount, linkMailFor, loginAs, resetMailFor } from './support/accounts';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, PASSWORD, register, type TestUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * Changing the email address over REST (docs/accounts.md, "Changing the email address"): the request
 * proven by the password (or a code), the link to the new address, the notice and its undo link to the
 * old one, no enumeration, the throttle, and the races the database decides. Time is a ManualClock.
 */
const FREE = 5; // LOGIN_FAILURES_BEFORE_BACKOFF
const HOUR = 3_600_000;
const clock = new ManualClock(new Date('2026-12-01T09:00:10Z'));
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: { RATE_LIMIT_DISABLED: 'true', LOGIN_FAILURES_BEFORE_BACKOFF: String(FREE) },
  });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const ask = (u: TestUser, body: Record<string, unknown>, token = u.token) =>
  api.post('/auth/email', body, { token });
const confirm = (token: string) => api.post('/auth/email/confirm', { token });
const undo = (token: string) => api.post('/auth/email/undo', { token });
const me = (token: string) => api.get('/auth/me', { token });
const signIn = (email: string, password: string) =>
  api.post('/auth/login', { email, password }).then((r) => r.status);
const confirmMail = (email: string) => linkMailFor(api, email, 'confirm-email');
const undoMail = (email: string) => linkMailFor(api, email, 'undo-email-change');
const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

/** asks for the change with the password and confirms it; the mails' tokens */
async function changed(u: TestUser, newEmail = uniqueEmail('new')) {
  const res = await ask(u, { newEmail, password: u.password });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const { token } = await confirmMail(newEmail);
  const done = await confirm(token);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { newEmail, confirmToken: token, undoToken: (await undoMail(u.email)).token };
}

describe('changing the email address', () => {
  it('mails a link to the new address that confirms it; the old address gets a notice whose link undoes it within 72 h, ends every session and mails a reset link', async () => {
    const user = await activeUser(api);
    const phone = await loginAs(api, user.email, user.password, 'Phone');
    const before = (await api.post('/auth/tokens', { name: 'mine' }, { token: user.token })).body.token;
    clock.advance(1_000);
    const newEmail = uniqueEmail('moved');

    const res = await ask(user, { newEmail: `  ${newEmail.toUpperCase()} `, password: user.password });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ message: expect.stringContaining('Check your new mailbox') });
    const mail = await confirmMail(newEmail);
    expect(mail.subject).toBe('Confirm your new email address for Plenum');
    expect(mail.link.startsWith('http://localhost:3000/confirm-email?token=')).toBe(true);
    expect(mail.text).toContain('expires in 1 day');
    const [row] = await t.app.svc.db.select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(mail.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(mail.token);
    // nothing changes until the link is opened
    expect(await signIn(user.email, user.password)).toBe(200);

    const done = await confirm(mail.token);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ message: expect.stringContaining('changed'), email: newEmail });
    expect((await me(user.token)).body.user).toMatchObject({ email: newEmail, emailVerified: true });
    expect(await signIn(newEmail, user.password)).toBe(200);
    expect(await signIn(user.email, user.password)).toBe(401);
    expect((await confirm(mail.token)).body.reason).toBe('EMAIL_CHANGE_TOKEN_USED');

    const notice = await undoMail(user.email);
    expect(notice.subject).toBe('The email address of your Plenum account was changed');
    expect(notice.text).toContain(newEmail);
    expect(notice.link.startsWith('http://localhost:3000/undo-email-change?token=')).toBe(true);
    expect(notice.text).toContain('within 3 days');

    // whoever changed it made an access token after the change: the undo takes it back
    clock.advance(HOUR);
    const after = (await api.post('/auth/tokens', { name: 'theirs' }, { token: phone })).body.token;
    clock.advance(70 * HOUR);
    const undone = await undo(notice.token);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.message).toContain('undone');
    for (const token of [user.token, phone]) expect((await me(token)).status).toBe(401);
    expect((await me(after)).status).toBe(401);
    expect((await me(before)).status).toBe(200);
    expect(await signIn(newEmail, user.password)).toBe(401);
    const fresh = await loginAs(api, user.email, user.password);
    expect((await me(fresh)).body.user.email).toBe(user.email);
    const reset = await resetMailFor(api, user.email);
    expect(
      (await api.post('/auth/password-reset/confirm', { token: reset.token, newPassword: 'Taken-Back-42' }))
        .status,
    ).toBe(200);
    expect((await undo(notice.token)).body.reason).toBe('EMAIL_CHANGE_TOKEN_USED');
  });

  it('refuses the undo after 72 hours and the confirmation after 24; a new request replaces the waiting one', async () => {
    const user = await activeUser(api);
    const { newEmail, undoToken } = await changed(user);
    clock.advance(72 * HOUR);
    const late = await undo(undoToken);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ reason: 'EMAIL_CHANGE_TOKEN_EXPIRED' });
    expect(late.body.issues).toEqual([expect.objectContaining({ path: 'token' })]);
    expect(await signIn(newEmail, user.password)).toBe(200);

    const other = await activeUser(api);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    expect((await ask(other, { newEmail: first, password: other.password })).status).toBe(202);
    const firstMail = await confirmMail(first);
    expect((await ask(other, { newEmail: second, password: other.password })).status).toBe(202);
    const secondMail = await confirmMail(second);
    expect((await confirm(firstMail.token)).body.reason).toBe('EMAIL_CHANGE_TOKEN_INVALID');
    clock.advance(24 * HOUR);
    expect((await confirm(secondMail.token)).body.reason).toBe('EMAIL_CHANGE_TOKEN_EXPIRED');
    expect((await confirm('not-a-token')).body.reason).toBe('EMAIL_CHANGE_TOKEN_INVALID');
    expect((await undo('not-a-token')).body.reason).toBe('EMAIL_CHANGE_TOKEN_INVALID');
    expect((await me(other.token)).body.user.email).toBe(other.email);
  });

  it('answers an address of another account with the same 202 and mails it; only the confirmation fails (409 EMAIL_TAKEN)', async () => {
    const owner = await activeUser(api);
    const user = await activeUser(api);
    const fresh = await ask(user, { newEmail: uniqueEmail('free'), password: user.password });
    const taken = await ask(user, { newEmail: owner.email.toUpperCase(), password: user.password });
    expect(taken.status).toBe(202);
    expect(taken.body).toEqual(fresh.body);
    expect(taken.headers.get('content-length')).toBe(fresh.headers.get('content-length'));

    const mail = await confirmMail(owner.email);
    const refused = await confirm(mail.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', reason: 'EMAIL_TAKEN' });
    expect((await me(user.token)).body.user.email).toBe(user.email);
    expect(await signIn(owner.email, owner.password)).toBe(200);
    // the old address was never told anything changed
    expect(await linkMailCount(api, user.email, 'undo-email-change')).toBe(0);
  });

  it('takes back a second factor set up after the change, so the owner can sign in with the password again', async () => {
    const user = await activeUser(api);
    const { newEmail, undoToken } = await changed(user);
    clock.advance(1_000);
    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    const secret = Secret.fromBase32(start.body.secret);
    const code = TOTP.generate({ secret, timestamp: clock.now().getTime() });
    expect((await api.post('/auth/mfa/totp/confirm', { code }, { token: user.token })).status).toBe(200);
    expect((await api.post('/auth/login', { email: newEmail, password: user.password })).body).toMatchObject({
      mfaRequired: true,
    });
    expect((await undo(undoToken)).status).toBe(200);
    const back = await api.post('/auth/login', { email: user.email, password: user.password });
    expect(back.body.token).toEqual(expect.any(String));
    expect((await api.get('/auth/mfa', { token: back.body.token })).body.totp.enabled).toBe(false);
  });

  it('refuses the undo when the old address was taken meanwhile (409), and lets a pending account confirm into an active one', async () => {
    const pending = uniqueEmail('pending');
    expect((await register(api, { email: pending })).status).toBe(201);
    const user: TestUser = { id: '', email: pending, password: PASSWORD, token: '' };
    user.token = await loginAs(api, pending, user.password);
    expect((await me(user.token)).body.user.status).toBe('pending_verification');
    const { undoToken } = await changed(user);
    expect((await me(user.token)).body.user).toMatchObject({ status: 'active', emailVerified: true });

    expect((await register(api, { email: pending })).status).toBe(201);
    const res = await undo(undoToken);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('EMAIL_TAKEN');
    expect((await me(user.token)).status).toBe(200);
  });

  it('refuses a wrong password (400, counted by the sign-in throttle), the same address, a missing proof and an access token', async () => {
    const user = await activeUser(api);
    const newEmail = uniqueEmail('guess');
    const same = await ask(user, { newEmail: user.email, password: user.password });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ reason: 'EMAIL_UNCHANGED' });
    expect(same.body.issues[0].path).toBe('newEmail');
    expect((await ask(user, { newEmail })).status).toBe(400);
    expect((await api.post('/auth/email', { newEmail, password: user.password })).status).toBe(401);
    // even with every scope, a token may not change the address
    const scopes = ['read', 'governance', 'storage', 'account'];
    const pat = (await api.post('/auth/tokens', { name: 'ci', scopes }, { token: user.token })).body.token;
    const byToken = await ask(user, { newEmail, password: user.password }, pat);
    expect(byToken.status).toBe(403);
    expect(byToken.body.reason).toBe('SESSION_REQUIRED');

    const statuses: number[] = [];
    for (let i = 0; i < FREE + 2; i++) {
      const wrong = await ask(user, { newEmail, password: `Wrong-Pass-${i}` });
      statuses.push(wrong.status);
      if (wrong.status === 400) {
        expect(wrong.body.reason).toBe('INVALID_CURRENT_PASSWORD');
        expect(wrong.body.issues).toEqual([expect.objectContaining({ path: 'password' })]);
      }
    }
    // five free failures, a sixth that earns the lock, then refused before any check
    expect(statuses).toEqual([...Array(FREE + 1).fill(400), 429]);
    expect(await signIn(user.email, user.password)).toBe(429);
    const locked = await ask(user, { newEmail, password: user.password });
    expect(locked.body.reason).toBe('LOGIN_THROTTLED');
    clock.advance(2_000);
    expect((await ask(user, { newEmail, password: user.password })).status).toBe(202);
    expect(await signIn(user.email, user.password)).toBe(200); // the right password cleared the count
    expect(await linkMailCount(api, newEmail, 'confirm-email')).toBe(1);
  });

  it('takes a second-factor code from an account without a password; one with a password and TOTP needs only the password', async () => {
    const withTotp = async () => {
      const u = await activeUser(api);
      const start = await api.post('/auth/mfa/totp', undefined, { token: u.token });
      const secret = Secret.fromBase32(start.body.secret);
      const code = () => TOTP.generate({ secret, timestamp: clock.now().getTime() });
      const on = await api.post('/auth/mfa/totp/confirm', { code: code() }, { token: u.token });
      expect(on.status).toBe(200);
      clock.advance(30_000);
      return { u, code, recoveryCodes: on.body.recoveryCodes as string[] };
    };
    const both = await withTotp();
    expect((await ask(both.u, { newEmail: uniqueEmail(), password: both.u.password })).status).toBe(202);

    const { u, code, recoveryCodes } = await withTotp();
    await t.app.svc.db.update(users).set({ passwordHash: NO_PASSWORD }).where(eq(users.id, u.id));
    const wrong = await ask(u, { newEmail: uniqueEmail(), code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.reason).toBe('INVALID_MFA_CODE');
    expect((await ask(u, { newEmail: uniqueEmail(), password: 'anything' })).body.reason).toBe(
      'INVALID_MFA_CODE',
    );
    const newEmail = uniqueEmail('coded');
    const now = code();
    expect((await ask(u, { newEmail, code: now })).status).toBe(202);
    expect((await ask(u, { newEmail, code: now })).body.reason).toBe('INVALID_MFA_CODE'); // once
    expect((await ask(u, { newEmail, code: recoveryCodes[0] })).status).toBe(202);
    expect(await linkMailCount(api, newEmail, 'confirm-email')).toBe(2);
  });

  it('refuses a cookie-authenticated request from another origin (CSRF) and takes it from the app', async () => {
    const user = await activeUser(api);
    const login = await api.post('/auth/login', { email: user.email, password: user.password });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const body = { newEmail: uniqueEmail(), password: user.password };
    const sibling = await api.post('/auth/email', body, {
      headers: { cookie, origin: 'http://localhost:3001' },
    });
    expect(sibling.status).toBe(403);
    expect(sibling.body.reason).toBe('CSRF');
    expect(await linkMailCount(api, body.newEmail, 'confirm-email')).toBe(0);
    const app = await api.post('/auth/email', body, { headers: { cookie, origin: 'http://localhost:3000' } });
    expect(app.status).toBe(202);
  });

  it('offers the same actions as tRPC procedures (auth.requestEmailChange, auth.confirmEmailChange, auth.undoEmailChange)', async () => {
    const user = await activeUser(api);
    const client = (token?: string) =>
      createTRPCClient<AppRouter>({
        links: [
          httpLink({ url: `${t.url}/trpc`, headers: token ? { authorization: `Bearer ${token}` } : {} }),
        ],
      });
    const newEmail = uniqueEmail('trpc');
    await client(user.token).auth.requestEmailChange.mutate({ newEmail, password: user.password });
    const done = await client().auth.confirmEmailChange.mutate({
      token: (await confirmMail(newEmail)).token,
    });
    expect(done.email).toBe(newEmail);
    await client().auth.undoEmailChange.mutate({ token: (await undoMail(user.email)).token });
    expect(await signIn(user.email, user.password)).toBe(200);
  });
});

describe('at once', () => {
  it('checks at most the free failures and one more of 12 wrong passwords sent at once; of 10 requests at once, one change waits', async () => {
    const user = await activeUser(api);
    const wrong = await Promise.all(
      Array.from({ length: 12 }, (_, i) => ask(user, { newEmail: uniqueEmail(), password: `Wrong-${i}` })),
    );
    expect(tally(wrong.map((r) => r.status))).toEqual({ 400: FREE + 1, 429: 12 - FREE - 1 });
    clock.advance(2_000);

    const other = await activeUser(api);
    const asked = await Promise.all(
      Array.from({ length: 10 }, () => ask(other, { newEmail: uniqueEmail(), password: other.password })),
    );
    expect(tally(asked.map((r) => r.status))).toEqual({ 202: 10 });
    const rows = await t.app.svc.db.select().from(emailChanges).where(eq(emailChanges.userId, other.id));
    expect(rows).toHaveLength(1);
  });

  it('confirms a link sent 10 times at once exactly once', async () => {
    const user = await activeUser(api);
    const newEmail = uniqueEmail('race');
    expect((await ask(user, { newEmail, password: user.password })).status).toBe(202);
    const { token } = await confirmMail(newEmail);
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(token)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: 1, 400: 9 });
    expect(await linkMailCount(api, user.email, 'undo-email-change')).toBe(1);
  });

  it('lets one of two accounts confirming the same new address win', async () => {
    const a = await activeUser(api);
    const b = await activeUser(api);
    const newEmail = uniqueEmail('contested');
    expect((await ask(a, { newEmail, password: a.password })).status).toBe(202);
    const first = await confirmMail(newEmail);
    expect((await ask(b, { newEmail, password: b.password })).status).toBe(202);
    const second = await confirmMail(newEmail);
    expect(second.token).not.toBe(first.token);
    const answers = await Promise.all([confirm(first.token), confirm(second.token)]);
    expect(tally(answers.map((r) => r.status))).toEqual({ 200: 1, 409: 1 });
    expect(answers.find((r) => r.status === 409)!.body.reason).toBe('EMAIL_TAKEN');
    const owners = await t.app.svc.db.select().from(users).where(eq(users.email, newEmail));
    expect(owners).toHaveLength(1);
  });
});
