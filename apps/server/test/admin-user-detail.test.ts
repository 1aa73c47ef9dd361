import { ManualClock } from '@plenum/core';
import { auditLog, sessions } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetMailCount, resetMailFor } from './support/accounts';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { scannedClient } from './support/body-scan';
import { activeUser, login, memberUser, PASSWORD, type TestUser } from './support/factories';
import { createDao } from './support/governance';
import type { ApiClient } from './support/http';

/**
 * The admin's view of a user (docs/users.md, "Administration"): GET /admin/users/{id} with wallets,
 * identities, factors (kinds only), live sessions and owned DAOs, never a secret; ending every session of
 * a user; mailing a reset link. Admins only, audited, CSRF-checked like every write.
 */
const ADMIN = 'detail-admin@example.org';
const clock = new ManualClock(new Date('2026-11-27T12:00:10Z'));
let t: TestApp;
let api: ApiClient;
let scan: ReturnType<typeof scannedClient>['scanner'];
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { RATE_LIMIT_DISABLED: 'true', ADMIN_EMAILS: ADMIN } });
  ({ api, scanner: scan } = scannedClient(t.url));
  admin = await activeUser(api, { email: ADMIN });
});
afterAll(() => t?.close());

const detail = (id: string, token = admin.token) => api.get(`/admin/users/${id}`, { token });
const revoke = (id: string, token = admin.token) =>
  api.post(`/admin/users/${id}/sessions/revoke`, {}, { token });
const sendReset = (id: string, token = admin.token) =>
  api.post(`/admin/users/${id}/password-reset`, {}, { token });
const audits = (action: string, targetId: string) =>
  t.app.svc.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

describe('GET /admin/users/{id}', () => {
  it('shows the list fields, wallets, factors by kind, live sessions and owned DAOs, and no secret', async () => {
    const user = await memberUser(api);
    const dao = await createDao(api, user, { threshold: 50, minVotingPeriod: 1, tokenWeighted: false });
    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    const secret = start.body.secret as string;
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now().getTime() });
    expect((await api.post('/auth/mfa/totp/confirm', { code }, { token: user.token })).status).toBe(200);

    const res = await detail(user.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      email: user.email,
      status: 'active',
      role: 'user',
      emailVerified: true,
      wallets: [{ address: user.wallet.address, isPrimary: true, linkedAt: expect.any(String) }],
      identities: [],
      factors: [{ kind: 'totp' }],
      ownedDaos: [{ id: dao.daoId, name: expect.any(String) }],
    });
    // confirming TOTP ended the other sessions: this one stays
    expect(res.body.sessions).toHaveLength(1);
    expect(Object.keys(res.body.sessions[0]).sort()).toEqual([
      'createdAt',
      'id',
      'ip',
      'lastSeenAt',
      'userAgent',
    ]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(user.token);
  });

  it('404 for an unknown or malformed id; 403 for members; 401 anonymous', async () => {
    const member = await activeUser(api);
    expect((await detail('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await detail('not-a-uuid')).status).toBe(400);
    expect((await detail(member.id, member.token)).status).toBe(403);
    expect((await api.get(`/admin/users/${member.id}`)).status).toBe(401);
    expect((await revoke(member.id, member.token)).status).toBe(403);
    expect((await sendReset(member.id, member.token)).status).toBe(403);
    expect((await api.post(`/admin/users/${member.id}/sessions/revoke`, {})).status).toBe(401);
    expect((await revoke('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('POST /admin/users/{id}/sessions/revoke', () => {
  it('ends every session of the user (its next request is a 401), says how many, and is audited', async () => {
    const user = await activeUser(api);
    const second = await login(api, user.email);
    const res = await revoke(user.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
    expect((await api.get('/auth/me', { token: user.token })).status).toBe(401);
    expect((await api.get('/auth/me', { token: second })).status).toBe(401);
    expect((await detail(user.id)).body.sessions).toEqual([]);
    const [row] = await audits('user.sessions_revoke', user.id);
    expect(row).toMatchObject({ actorId: admin.id, details: { ended: 2 } });
  });

  it('refuses a cookie-authenticated request from another origin (CSRF)', async () => {
    const user = await activeUser(api);
    const signIn = await api.post('/auth/login', { email: ADMIN, password: PASSWORD });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const res = await api.post(
      `/admin/users/${user.id}/sessions/revoke`,
      {},
      {
        headers: { cookie, origin: 'http://localhost:3001' },
      },
    );
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('CSRF');
    expect((await api.get('/auth/me', { token: user.token })).status).toBe(200);
  });
});

describe('POST /admin/users/{id}/password-reset', () => {
  it('mails the user a working reset link (202), audited; the password stays until it is used', async () => {
    const user = await activeUser(api);
    const res = await sendReset(user.id);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const mail = await resetMailFor(api, user.email);
    expect((await api.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(200);
    const done = await api.post('/auth/password-reset/confirm', {
      token: mail.token,
      newPassword: 'Fresh-Horse-55',
    });
    expect(done.status).toBe(200);
    expect(await audits('user.password_reset_sent', user.id)).toHaveLength(1);
  });

  it('refuses a suspended account (409) and mails nothing', async () => {
    const user = await activeUser(api);
    expect(
      (await api.post(`/admin/users/${user.id}/suspend`, { reason: 'x' }, { token: admin.token })).status,
    ).toBe(200);
    const res = await sendReset(user.id);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('ACCOUNT_SUSPENDED');
    expect(await resetMailCount(api, user.email)).toBe(0);
  });
});

describe.runIf(TEST_DB === 'postgres')('at once (PostgreSQL)', () => {
  it('many revokes at once end each session once: the counts add up to the sessions there were', async () => {
    const user = await activeUser(api);
    for (let i = 0; i < 5; i++) await login(api, user.email);
    const results = await Promise.all(Array.from({ length: 10 }, () => revoke(user.id)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.reduce((n, r) => n + (r.body.ended as number), 0)).toBe(6);
    expect(await t.app.svc.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await audits('user.sessions_revoke', user.id)).toHaveLength(10);
  });
});

describe('the bodies', () => {
  it('carried no secret and no other user’s email to a non-admin', () => {
    expect(scan.violations()).toEqual([]);
  });
});
