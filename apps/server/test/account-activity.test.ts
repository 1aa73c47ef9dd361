import { ManualClock } from '@plenum/core';
import { accountEvents, emailOutbox } from '@plenum/db';
import { count, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMailFor, resetMailFor } from './support/accounts';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { activeUser, linkWallet, siweMessage, type TestUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { SoftAuthenticator } from './support/soft-authenticator';

/**
 * Account activity (docs/accounts.md, "Account activity"): every kind of event is written by the change it
 * records, read back by GET /auth/activity newest first by page or cursor, only by its owner (a token needs
 * the `account` scope), and failed sign-ins are recorded for existing accounts only.
 */
const ADMIN = 'activity-admin@example.org';
const clock = new ManualClock(new Date('2026-11-27T12:00:10Z'));
const UA = 'ActivityTest/2.0';
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { RATE_LIMIT_DISABLED: 'true', ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url);
  admin = await activeUser(api, { email: ADMIN });
});
afterAll(() => t?.close());

type Event = {
  id: string;
  kind: string;
  detail: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
};

const activity = async (token: string, query = '') => {
  const res = await api.get(`/auth/activity${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    items: Event[];
    pagination: { total: number; nextCursor: string | null };
    nextCursor: string | null;
  };
};
const codeAt = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now().getTime() });
const step = () => clock.advance(30_000);
const subjectsTo = async (email: string) =>
  (await t.app.svc.db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).map((m) => m.subject);
const eventsOf = async (userId: string) =>
  (await t.app.svc.db.select({ n: count() }).from(accountEvents).where(eq(accountEvents.userId, userId)))[0]!
    .n;

describe('events by kind', () => {
  it('records sign-ins by method with the client, and failed attempts of an existing account', async () => {
    const user = await activeUser(api);
    step();
    const ok = await api.post(
      '/auth/login',
      { email: user.email, password: user.password },
      { headers: { 'user-agent': UA } },
    );
    expect(ok.status).toBe(200);
    step();
    expect((await api.post('/auth/login', { email: user.email, password: 'Wrong-Horse-1' })).status).toBe(
      401,
    );
    const wallet = await linkWallet(api, user);
    step();
    expect((await api.post('/auth/siwe', await siweMessage(api, wallet))).status).toBe(200);

    const { items } = await activity(user.token);
    expect(items.map((e) => [e.kind, e.detail.method])).toEqual([
      ['sign_in', 'siwe'],
      ['sign_in_failed', 'password'],
      ['sign_in', 'password'],
      ['sign_in', 'password'], // activeUser's own sign-in
    ]);
    expect(items[2]).toMatchObject({ userAgent: UA, ip: expect.any(String) });
    // newest first
    const times = items.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('records nothing for an unknown email, the same 401 as a wrong password', async () => {
    const all = async () => (await t.app.svc.db.select({ n: count() }).from(accountEvents))[0]!.n;
    const before = await all();
    const res = await api.post('/auth/login', { email: uniqueEmail('nobody'), password: 'Wrong-Horse-1' });
    expect(res.status).toBe(401);
    expect(await all()).toBe(before);
  });

  it('records the second factor: added, a sign-in through it, a wrong code, renewed codes, removed', async () => {
    const user = await activeUser(api);
    step();
    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    const secret = start.body.secret as string;
    expect(
      (await api.post('/auth/mfa/totp/confirm', { code: codeAt(secret) }, { token: user.token })).status,
    ).toBe(200);
    step();
    const challenge = async () =>
      (await api.post('/auth/login', { email: user.email, password: user.password })).body.mfaToken as string;
    expect((await api.post('/auth/login/mfa', { mfaToken: await challenge(), code: '000000' })).status).toBe(
      401,
    );
    step();
    const signedIn = await api.post('/auth/login/mfa', { mfaToken: await challenge(), code: codeAt(secret) });
    expect(signedIn.status).toBe(200);
    step();
    const renewed = await api.post(
      '/auth/mfa/recovery-codes',
      { code: codeAt(secret) },
      { token: user.token },
    );
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    step();
    const removed = await api.request(
      'DELETE',
      '/auth/mfa/totp',
      { code: codeAt(secret) },
      { token: user.token },
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);

    const events = (await activity(user.token)).items;
    expect(events.map((e) => e.kind)).toEqual([
      'factor_removed',
      'recovery_codes_renewed',
      'sign_in',
      'sign_in_failed',
      'factor_added',
      'sign_in',
    ]);
    expect(events[0]!.detail).toEqual({ kind: 'totp' });
    expect(events[2]!.detail).toEqual({ method: 'mfa', firstFactor: 'password' });
    expect(events[3]!.detail).toEqual({ method: 'mfa', firstFactor: 'password' });
    expect(events[4]!.detail).toEqual({ kind: 'totp' });
  });

  it('records passkeys: added, a sign-in with one alone, one as the second step, removed (with the client)', async () => {
    const user = await activeUser(api);
    // events of one instant have no order among them: each action a second after the last
    const later = () => clock.advance(1_000);
    later();
    const headers = { 'user-agent': UA };
    const authenticator = new SoftAuthenticator('http://localhost:3000');
    const register = async (name: string) => {
      const options = await api.post('/auth/passkeys/register/options', {}, { token: user.token, headers });
      const res = await api.post(
        '/auth/passkeys/register',
        { response: authenticator.register(options.body), name },
        { token: user.token, headers },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      later();
      return res.body.id as string;
    };
    const laptop = await register('Laptop');
    await register('Phone');
    const options = await api.post('/auth/passkeys/login/options', {});
    const alone = await api.post('/auth/passkeys/login', {
      response: authenticator.authenticate(options.body),
    });
    expect(alone.status, JSON.stringify(alone.body)).toBe(200);
    later();
    const first = await api.post('/auth/login', { email: user.email, password: user.password });
    expect(first.body.methods).toEqual(['passkey']);
    const stepOptions = await api.post('/auth/passkeys/login/options', { mfaToken: first.body.mfaToken });
    const second = await api.post('/auth/login/mfa', {
      mfaToken: first.body.mfaToken,
      passkey: authenticator.authenticate(stepOptions.body),
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    later();
    const removed = await api.request('DELETE', `/auth/passkeys/${laptop}`, undefined, {
      token: user.token,
      headers,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);

    const events = (await activity(user.token)).items;
    expect(events.map((e) => [e.kind, e.detail])).toEqual([
      ['factor_removed', { kind: 'passkey', name: 'Laptop' }],
      ['sign_in', { method: 'mfa', firstFactor: 'password', secondFactor: 'passkey' }],
      ['sign_in', { method: 'passkey' }],
      ['factor_added', { kind: 'passkey', name: 'Phone' }],
      ['factor_added', { kind: 'passkey', name: 'Laptop' }],
      ['sign_in', { method: 'password' }],
    ]);
    expect(events[0]!.userAgent).toBe(UA);
    expect(events[4]!.userAgent).toBe(UA);
  });

  it('records password change and reset, email change, tokens and session revocations, and mails the password notices', async () => {
    const user = await activeUser(api);
    step();
    const newPassword = 'Battery-Staple-42';
    const changed = await api.post(
      '/auth/password',
      { currentPassword: user.password, newPassword },
      { token: user.token },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await subjectsTo(user.email)).toContain('Your Plenum password was changed');
    step();

    expect((await api.post('/auth/password-reset', { email: user.email })).status).toBe(202);
    const reset = await api.post('/auth/password-reset/confirm', {
      token: (await resetMailFor(api, user.email)).token,
      newPassword: 'Another-Horse-77',
    });
    expect(reset.status).toBe(200);
    expect(await subjectsTo(user.email)).toContain('Your Plenum password was reset');
    step();
    const token = (await api.post('/auth/login', { email: user.email, password: 'Another-Horse-77' })).body
      .token as string;

    step();
    const newEmail = uniqueEmail('moved');
    expect(
      (await api.post('/auth/email', { newEmail, password: 'Another-Horse-77' }, { token })).status,
    ).toBe(202);
    const confirmed = await api.post('/auth/email/confirm', {
      token: (await linkMailFor(api, newEmail, 'confirm-email')).token,
    });
    expect(confirmed.status).toBe(200);

    step();
    const pat = await api.post('/auth/tokens', { name: 'script' }, { token });
    expect(pat.status).toBe(201);
    step();
    expect((await api.delete(`/auth/tokens/${pat.body.id}`, { token })).status).toBe(204);
    step();
    expect((await api.post('/auth/sessions/revoke-others', undefined, { token })).status).toBe(200);

    const events = (await activity(token)).items;
    expect(events.slice(0, 8).map((e) => e.kind)).toEqual([
      'sessions_revoked',
      'token_revoked',
      'token_created',
      'email_changed',
      'sign_in',
      'password_reset',
      'password_changed',
      'sign_in',
    ]);
    expect(events[2]!.detail).toMatchObject({ tokenId: pat.body.id, name: 'script' });
    // no secret in any event
    expect(JSON.stringify(events)).not.toContain(pat.body.token);
  });

  it('records suspension and reactivation by an admin without the admin client, and mails both', async () => {
    const user = await activeUser(api);
    const adminToken = (await api.post('/auth/login', { email: ADMIN, password: admin.password })).body.token;
    step();
    const s = await api.post(`/admin/users/${user.id}/suspend`, { reason: 'spam' }, { token: adminToken });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    step();
    const r = await api.post(`/admin/users/${user.id}/reactivate`, {}, { token: adminToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    step();
    const token = (await api.post('/auth/login', { email: user.email, password: user.password })).body.token;
    const events = (await activity(token)).items;
    expect(events.slice(1, 3).map((e) => [e.kind, e.ip, e.detail.by])).toEqual([
      ['reactivated', null, 'admin'],
      ['suspended', null, 'admin'],
    ]);
    const subjects = await subjectsTo(user.email);
    expect(subjects).toContain('Your Plenum account is suspended');
    expect(subjects).toContain('Your Plenum account is active again');
  });
});

describe('GET /auth/activity', () => {
  it('pages by cursor and by page, every event once', async () => {
    const user = await activeUser(api);
    for (let i = 0; i < 6; i++)
      expect((await api.post('/auth/login', { email: user.email, password: 'Wrong-Horse-1' })).status).toBe(
        401,
      );
    // activeUser signed in once: 7 events, some at the same instant
    const all = await activity(user.token, '?limit=200');
    expect(all.pagination.total).toBe(7);
    const seen: string[] = [];
    let page = await activity(user.token, '?limit=3');
    for (;;) {
      seen.push(...page.items.map((e) => e.id));
      expect(page.nextCursor).toBe(page.pagination.nextCursor);
      if (!page.nextCursor) break;
      page = await activity(user.token, `?limit=3&after=${encodeURIComponent(page.nextCursor)}`);
    }
    expect(seen).toEqual(all.items.map((e) => e.id));
    expect((await activity(user.token, '?limit=3&page=3')).items.map((e) => e.id)).toEqual(seen.slice(6));
    const bad = await api.get('/auth/activity?after=nonsense', { token: user.token });
    expect(bad.status).toBe(400);
  });

  it('shows only the caller’s own events; anonymous 401; a token needs the account scope', async () => {
    const [a, b] = await Promise.all([activeUser(api), activeUser(api)]);
    await api.post('/auth/login', { email: b.email, password: 'Wrong-Horse-1' });
    const mine = await activity(a.token);
    expect(mine.items.every((e) => e.kind === 'sign_in')).toBe(true);
    expect(mine.items).toHaveLength(1);
    expect(await eventsOf(b.id)).toBe(2);

    expect((await api.get('/auth/activity')).status).toBe(401);
    const read = await api.post('/auth/tokens', { name: 'reader', scopes: ['read'] }, { token: a.token });
    const refused = await api.get('/auth/activity', { token: read.body.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: 'INSUFFICIENT_SCOPE', detail: 'account' });
    const acct = await api.post('/auth/tokens', { name: 'acct', scopes: ['account'] }, { token: a.token });
    const allowed = await activity(acct.body.token);
    expect(allowed.items.filter((e) => e.kind === 'token_created')).toHaveLength(2);
  });
});

describe.runIf(TEST_DB === 'postgres')('at once (PostgreSQL)', () => {
  it('of many right answers to one challenge, one signs in and one sign_in event is written', async () => {
    const user = await activeUser(api);
    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    const secret = start.body.secret as string;
    await api.post('/auth/mfa/totp/confirm', { code: codeAt(secret) }, { token: user.token });
    step();
    const mfaToken = (await api.post('/auth/login', { email: user.email, password: user.password })).body
      .mfaToken;
    const code = codeAt(secret);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () => api.post('/auth/login/mfa', { mfaToken, code }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // the others: the code is taken (401), or the throttle refused them before the code was checked (429)
    expect(statuses.filter((s) => s !== 401 && s !== 429 && s !== 200)).toEqual([]);
    const signIns = (await activity(user.token, '?limit=200')).items.filter(
      (e) => e.kind === 'sign_in' && e.detail.method === 'mfa',
    );
    expect(signIns).toHaveLength(1);
  });

  it('many wrong passwords at once: one sign_in_failed per refused attempt that was checked', async () => {
    const user = await activeUser(api);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post('/auth/login', { email: user.email, password: 'Wrong-Horse-1' }).then((r) => r.status),
      ),
    );
    const failed = (await activity(user.token, '?limit=200')).items.filter(
      (e) => e.kind === 'sign_in_failed',
    );
    // a locked account's attempts (429) are refused before the password is checked: not recorded
    expect(failed).toHaveLength(statuses.filter((s) => s === 401).length);
  });
});
