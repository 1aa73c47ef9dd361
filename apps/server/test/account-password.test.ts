import { createHash } from 'node:crypto';
import type { AppRouter } from '@plenum/api';
import { ManualClock } from '@plenum/core';
import { passwordResetTokens } from '@plenum/db';
import { TOKEN_SCOPES } from '@plenum/validators';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAs, resetMailCount, resetMailFor } from './support/accounts';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, register, type TestUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

// The real functions run; the wrapper counts the reset tokens made and hashed, so "the same work for
// every address" is checked by counting rather than timing (as auth-enumeration.test.ts does for login).
const counted = vi.hoisted(() => ({ tokens: 0 }));
vi.mock('@plenum/core/shared/tokens', async (importOriginal) => {
  const real = await importOriginal<typeof import('@plenum/core/shared/tokens')>();
  return {
    ...real,
    newToken: (...args: Parameters<typeof real.newToken>) => {
      counted.tokens++;
      return real.newToken(...args);
    },
    hashToken: (...args: Parameters<typeof real.hashToken>) => {
      counted.tokens++;
      return real.hashToken(...args);
    },
  };
});

const ADMIN = 'password-admin@example.org';
const NEW_PASSWORD = 'Brand-New-Pass-7';
const clock = new ManualClock();
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url);
  admin = await activeUser(api, { email: ADMIN });
});
afterAll(() => t?.close());

const me = (token: string) => api.get('/auth/me', { token }).then((r) => r.status);
const signIn = (email: string, password: string) =>
  api.post('/auth/login', { email, password }).then((r) => r.status);

describe('changing the password while signed in', () => {
  it('refuses a wrong current password (400), a new one breaking the policy (each rule named) and the same one', async () => {
    const user = await activeUser(api);
    const change = (body: unknown) => api.post('/auth/password', body, { token: user.token });

    const wrong = await change({ currentPassword: 'Not-my-password-1', newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'BAD_REQUEST', reason: 'INVALID_CURRENT_PASSWORD' });
    expect(wrong.body.issues).toEqual([expect.objectContaining({ path: 'currentPassword' })]);

    const weak = await change({ currentPassword: user.password, newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.reason).toBe('PASSWORD_POLICY');
    expect(weak.body.issues.map((i: { path: string }) => i.path)).toEqual([
      'newPassword',
      'newPassword',
      'newPassword',
    ]);
    expect(weak.body.issues.map((i: { code: string }) => i.code).sort()).toEqual([
      'minLength',
      'requireNumbers',
      'requireUppercase',
    ]);

    const same = await change({ currentPassword: user.password, newPassword: user.password });
    expect(same.status).toBe(400);
    expect(same.body.reason).toBe('PASSWORD_UNCHANGED');

    const anonymous = await api.post('/auth/password', {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(anonymous.status).toBe(401);
    expect((await change({ currentPassword: user.password })).status).toBe(400);
    // nothing changed
    expect(await signIn(user.email, user.password)).toBe(200);
  });

  it('ends every other session, keeps this one and the access tokens; the old password stops working', async () => {
    const user = await activeUser(api);
    const laptop = await loginAs(api, user.email, user.password, 'Laptop');
    const phone = await loginAs(api, user.email, user.password, 'Phone');
    const pat = (await api.post('/auth/tokens', { name: 'ci', scopes: TOKEN_SCOPES }, { token: user.token }))
      .body.token as string;

    // a personal access token is not a sign-in session: even with every scope it cannot change the password
    const byToken = await api.post(
      '/auth/password',
      { currentPassword: user.password, newPassword: NEW_PASSWORD },
      { token: pat },
    );
    expect(byToken.status).toBe(403);
    expect(byToken.body.reason).toBe('SESSION_REQUIRED');

    const res = await api.post(
      '/auth/password',
      { currentPassword: user.password, newPassword: NEW_PASSWORD },
      { token: laptop },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: 'Password changed', endedSessions: 2 });
    expect(res.text).not.toContain(NEW_PASSWORD);

    expect(await me(laptop)).toBe(200);
    expect(await me(phone)).toBe(401);
    expect(await me(user.token)).toBe(401);
    expect(await me(pat)).toBe(200);
    expect(await signIn(user.email, user.password)).toBe(401);
    expect(await signIn(user.email, NEW_PASSWORD)).toBe(200);
  });
});

describe('password reset by email', () => {
  it('answers 202 with one body for any address, does the same token work, and mails only accounts that may sign in', async () => {
    const active = await activeUser(api);
    const pendingEmail = uniqueEmail();
    expect((await register(api, { email: pendingEmail })).status).toBe(201);
    const suspended = await activeUser(api);
    expect(
      (await api.post(`/admin/users/${suspended.id}/suspend`, { reason: 'test' }, { token: admin.token }))
        .status,
    ).toBe(200);
    const deleted = await activeUser(api);
    expect((await api.delete(`/users/${deleted.id}`, { token: deleted.token })).status).toBe(204);

    const ask = async (email: string) => {
      counted.tokens = 0;
      const res = await api.post('/auth/password-reset', { email });
      return { status: res.status, body: res.body, tokens: counted.tokens };
    };
    const unknown = await ask(uniqueEmail());
    const answers = [
      unknown,
      await ask(active.email.toUpperCase()),
      await ask(pendingEmail),
      await ask(suspended.email),
      await ask(deleted.email),
    ];
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.body).toEqual(unknown.body);
      expect(a.tokens).toBe(unknown.tokens);
    }
    expect(unknown.tokens).toBeGreaterThan(0);
    expect(unknown.body).toEqual({ message: expect.stringContaining('If an account uses this address') });

    expect(await resetMailCount(api, active.email)).toBe(1);
    expect(await resetMailCount(api, pendingEmail)).toBe(1);
    expect(await resetMailCount(api, suspended.email)).toBe(0);
    expect(await resetMailCount(api, deleted.email)).toBe(0);

    // a malformed address is a field error, which says nothing about any account
    const bad = await api.post('/auth/password-reset', { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('email');
  });

  it('mails a single-use APP_URL/reset-password link (stored only hashed) that sets a new password and ends every session', async () => {
    const user = await activeUser(api);
    const other = await loginAs(api, user.email, user.password, 'Other device');
    const before = (await api.get(`/users/${user.id}`, { token: user.token })).body;
    expect((await api.post('/auth/password-reset', { email: user.email })).status).toBe(202);

    const mail = await resetMailFor(api, user.email);
    expect(mail.subject).toBe('Reset your Plenum password');
    expect(mail.link.startsWith('http://localhost:3000/reset-password?token=')).toBe(true);
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    const rows = await t.app.svc.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(mail.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(mail.token);

    // the policy is checked first, and a refused password does not spend the link
    const weak = await api.post('/auth/password-reset/confirm', { token: mail.token, newPassword: 'weak' });
    expect(weak.status).toBe(400);
    expect(weak.body.reason).toBe('PASSWORD_POLICY');
    expect(weak.body.issues.every((i: { path: string }) => i.path === 'newPassword')).toBe(true);

    const done = await api.post('/auth/password-reset/confirm', {
      token: mail.token,
      newPassword: NEW_PASSWORD,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toContain('reset');
    expect(done.text).not.toContain('token');

    expect(await me(user.token)).toBe(401);
    expect(await me(other)).toBe(401);
    expect(await signIn(user.email, user.password)).toBe(401);
    const fresh = await loginAs(api, user.email, NEW_PASSWORD);
    // nothing else about the account changed: no sign-in recorded by the reset, verification untouched
    const after = (await api.get(`/users/${user.id}`, { token: fresh })).body;
    const { updatedAt: _a, lastLoginAt: _b, ...beforeRest } = before;
    const { updatedAt: _c, lastLoginAt: _d, ...afterRest } = after;
    expect(afterRest).toEqual(beforeRest);

    const again = await api.post('/auth/password-reset/confirm', {
      token: mail.token,
      newPassword: 'Another-Pass-8',
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'BAD_REQUEST', reason: 'RESET_TOKEN_USED' });
    expect(await signIn(user.email, NEW_PASSWORD)).toBe(200);

    const unknown = await api.post('/auth/password-reset/confirm', {
      token: 'not-a-token',
      newPassword: NEW_PASSWORD,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.reason).toBe('RESET_TOKEN_INVALID');
  });

  it('spends every outstanding link of the account when one is used', async () => {
    const user = await activeUser(api);
    await api.post('/auth/password-reset', { email: user.email });
    const first = await resetMailFor(api, user.email);
    await api.post('/auth/password-reset', { email: user.email });
    await expect.poll(() => resetMailCount(api, user.email)).toBe(2);
    const second = await resetMailFor(api, user.email);
    expect(second.token).not.toBe(first.token);

    const done = await api.post('/auth/password-reset/confirm', {
      token: second.token,
      newPassword: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    const stale = await api.post('/auth/password-reset/confirm', {
      token: first.token,
      newPassword: 'Other-Pass-9',
    });
    expect(stale.status).toBe(400);
    expect(stale.body.reason).toBe('RESET_TOKEN_USED');
  });

  it('lets exactly one of two simultaneous uses of a link through', async () => {
    const user = await activeUser(api);
    await api.post('/auth/password-reset', { email: user.email });
    const { token } = await resetMailFor(api, user.email);
    const [a, b] = await Promise.all([
      api.post('/auth/password-reset/confirm', { token, newPassword: 'Racing-Pass-1' }),
      api.post('/auth/password-reset/confirm', { token, newPassword: 'Racing-Pass-2' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it('expires a link after PASSWORD_RESET_TOKEN_EXPIRY (1 hour by default)', async () => {
    const late = await activeUser(api);
    const onTime = await activeUser(api);
    await api.post('/auth/password-reset', { email: late.email });
    await api.post('/auth/password-reset', { email: onTime.email });
    const lateMail = await resetMailFor(api, late.email);
    const onTimeMail = await resetMailFor(api, onTime.email);

    clock.advance(59 * 60_000);
    const ok = await api.post('/auth/password-reset/confirm', {
      token: onTimeMail.token,
      newPassword: NEW_PASSWORD,
    });
    expect(ok.status).toBe(200);

    clock.advance(60_000);
    const expired = await api.post('/auth/password-reset/confirm', {
      token: lateMail.token,
      newPassword: NEW_PASSWORD,
    });
    expect(expired.status).toBe(400);
    expect(expired.body.reason).toBe('RESET_TOKEN_EXPIRED');
    expect(await signIn(late.email, late.password)).toBe(200);
  });

  it('refuses a link mailed before the account was suspended', async () => {
    const user = await activeUser(api);
    await api.post('/auth/password-reset', { email: user.email });
    const { token } = await resetMailFor(api, user.email);
    expect(
      (await api.post(`/admin/users/${user.id}/suspend`, { reason: 'test' }, { token: admin.token })).status,
    ).toBe(200);
    const res = await api.post('/auth/password-reset/confirm', { token, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('RESET_TOKEN_INVALID');
  });

  it('offers the same actions as tRPC procedures (auth.requestPasswordReset, auth.resetPassword, auth.changePassword)', async () => {
    const user = await activeUser(api);
    const client = (token?: string) =>
      createTRPCClient<AppRouter>({
        links: [
          httpLink({ url: `${t.url}/trpc`, headers: token ? { authorization: `Bearer ${token}` } : {} }),
        ],
      });
    const changed = await client(user.token).auth.changePassword.mutate({
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(changed.endedSessions).toBe(0);
    const asked = await client().auth.requestPasswordReset.mutate({ email: user.email });
    expect(asked.message).toContain('If an account uses this address');
    const { token } = await resetMailFor(api, user.email);
    const err = await client()
      .auth.resetPassword.mutate({ token, newPassword: 'weak' })
      .catch((e: unknown) => e as TRPCClientError<AppRouter>);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<AppRouter>).data).toMatchObject({
      httpStatus: 400,
      reason: 'PASSWORD_POLICY',
    });
    await client().auth.resetPassword.mutate({ token, newPassword: 'Reset-By-Trpc-1' });
    expect(await signIn(user.email, 'Reset-By-Trpc-1')).toBe(200);
  });
});

describe('rate limits', () => {
  it('puts the password paths on the stricter sign-in budget, over REST and tRPC', async () => {
    const limited = await startTestApp({
      env: { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_AUTH_PER_MINUTE: '2', RATE_LIMIT_PER_MINUTE: '100' },
    });
    try {
      const a = apiClient(limited.url);
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await a.post('/auth/password-reset', { email: uniqueEmail() })).status);
      expect(statuses).toEqual([202, 202, 429]);
      expect((await a.post('/auth/password-reset/confirm', { token: 'x', newPassword: 'y' })).status).toBe(
        429,
      );
      expect((await a.post('/auth/password', { currentPassword: 'x', newPassword: 'y' })).status).toBe(429);
      const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${limited.url}/trpc` })] });
      const err = await trpc.auth.requestPasswordReset
        .mutate({ email: uniqueEmail() })
        .catch((e: unknown) => e as TRPCClientError<AppRouter>);
      expect((err as TRPCClientError<AppRouter>).data).toMatchObject({ httpStatus: 429 });
    } finally {
      await limited.close();
    }
  });
});
