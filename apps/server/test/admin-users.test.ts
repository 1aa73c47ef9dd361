import { ManualClock, setRoleByEmail } from '@plenum/core';
import { auditLog, users } from '@plenum/db';
import { and, count, eq, gte, isNull, lt, max, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { scannedClient } from './support/body-scan';
import { activeUser, PASSWORD, register, type TestUser } from './support/factories';
import type { ApiClient } from './support/http';

const ADMIN = 'admin-users-admin@example.org';
const BULK = 300;
// mid-month, so the bulk users straddle the start of this UTC month
const clock = new ManualClock(new Date('2026-03-15T12:00:00Z'));
let t: TestApp;
let api: ApiClient;
let scan: ReturnType<typeof scannedClient>['scanner'];
let admin: TestUser;
let plain: TestUser;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN }, clock });
  ({ api, scanner: scan } = scannedClient(t.url));
  [admin, plain] = await Promise.all([activeUser(api, { email: ADMIN }), activeUser(api)]);
  // a few hundred users straight into the database: every 7th suspended, every 5th pending, every 11th
  // an admin, every 13th soft-deleted, one every 6 hours backwards from the clock
  const start = clock.now().getTime();
  await t.app.svc.db.insert(users).values(
    Array.from({ length: BULK }, (_, i) => ({
      email: `bulk-${i}@bulk.test`,
      passwordHash: 'not-a-real-hash',
      firstName: `Zed${i}`,
      lastName: i % 2 ? 'Odd_Bulk' : 'Even%Bulk',
      status:
        i % 7 === 0
          ? ('suspended' as const)
          : i % 5 === 0
            ? ('pending_verification' as const)
            : ('active' as const),
      role: i % 11 === 0 ? ('admin' as const) : ('user' as const),
      emailVerified: i % 5 !== 0,
      createdAt: new Date(start - (i + 1) * 6 * 3_600_000),
      updatedAt: new Date(start),
      lastLoginAt: i % 3 === 0 ? new Date(start - i * 60_000) : null,
      deletedAt: i % 13 === 0 ? new Date(start) : null,
    })),
  );
});
afterAll(() => t.close());

const liveBulk = Array.from({ length: BULK }, (_, i) => i).filter((i) => i % 13 !== 0);

describe('GET /admin/users', () => {
  it('pages through every live user exactly once, newest first, with the list fields', async () => {
    const [{ n: expected } = { n: 0 }] = await t.app.svc.db
      .select({ n: count() })
      .from(users)
      .where(isNull(users.deletedAt));
    const seen: string[] = [];
    let previous = Number.POSITIVE_INFINITY;
    const first = await api.get('/admin/users?limit=40', { token: admin.token });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      total: expected,
      page: 1,
      limit: 40,
      totalPages: Math.ceil(expected / 40),
    });
    expect(Object.keys(first.body.users[0]).sort()).toEqual(
      [
        'createdAt',
        'email',
        'emailVerified',
        'firstName',
        'id',
        'lastLoginAt',
        'lastName',
        'role',
        'status',
      ].sort(),
    );
    for (let page = 1; page <= first.body.pagination.totalPages; page++) {
      const res = await api.get(`/admin/users?limit=40&page=${page}`, { token: admin.token });
      for (const u of res.body.users as { id: string; createdAt: string }[]) {
        expect(Date.parse(u.createdAt)).toBeLessThanOrEqual(previous);
        previous = Date.parse(u.createdAt);
        seen.push(u.id);
      }
    }
    expect(seen).toHaveLength(expected);
    expect(new Set(seen).size).toBe(expected);
    const beyond = await api.get(`/admin/users?limit=40&page=${first.body.pagination.totalPages + 1}`, {
      token: admin.token,
    });
    expect(beyond.body.users).toEqual([]);
  });

  it('keeps the total of every live account through sign-ups, soft deletion, restoring and deletion', async () => {
    const total = async () =>
      (await api.get('/admin/users?limit=1', { token: admin.token })).body.pagination.total as number;
    const counted = async () =>
      Number(
        (await t.app.svc.db.select({ n: count() }).from(users).where(isNull(users.deletedAt)))[0]?.n ?? 0,
      );
    const before = await total();
    expect(before).toBe(await counted());
    const someone = await activeUser(api);
    expect(await total()).toBe(before + 1);
    const gone = new Date(clock.now().getTime());
    await t.app.svc.db.update(users).set({ deletedAt: gone }).where(eq(users.id, someone.id));
    expect(await total()).toBe(before);
    // an update that leaves deletion as it is (a sign-in, a suspension) changes nothing
    await t.app.svc.db.update(users).set({ lastLoginAt: gone }).where(eq(users.id, someone.id));
    expect(await total()).toBe(before);
    await t.app.svc.db.update(users).set({ deletedAt: null }).where(eq(users.id, someone.id));
    expect(await total()).toBe(before + 1);
    await t.app.svc.db.delete(users).where(eq(users.id, someone.id));
    expect([await total(), await counted()]).toEqual([before, before]);
  });

  it('defaults to page 1 of 50 and refuses limits above 200 or below 1', async () => {
    const res = await api.get('/admin/users', { token: admin.token });
    expect(res.body.users).toHaveLength(50);
    expect(res.body.pagination).toMatchObject({ page: 1, limit: 50 });
    expect((await api.get('/admin/users?limit=200', { token: admin.token })).body.users).toHaveLength(200);
    for (const q of ['limit=201', 'limit=0', 'page=0', 'page=x', 'status=deleted', 'role=root', 'unknown=1'])
      expect((await api.get(`/admin/users?${q}`, { token: admin.token })).status, q).toBe(400);
  });

  it('searches name and email ignoring case, treats % and _ literally, and combines with filters', async () => {
    const search = async (q: string) => {
      const res = await api.get(`/admin/users?limit=200&${q}`, { token: admin.token });
      expect(res.status, q).toBe(200);
      return res.body as {
        users: { email: string; status: string; role: string }[];
        pagination: { total: number };
      };
    };
    const bulk1 = liveBulk.filter((i) => String(i).startsWith('1'));
    expect((await search('search=BULK-1')).pagination.total).toBe(bulk1.length);
    expect((await search('search=zed2')).pagination.total).toBe(
      liveBulk.filter((i) => String(i).startsWith('2')).length,
    );
    // the last name alone (no email holds it), in any case
    expect((await search('search=odd_BULK')).pagination.total).toBe(
      liveBulk.filter((i) => i % 2 === 1).length,
    );
    // "first last" together
    expect((await search(`search=${encodeURIComponent('Zed4 Even%Bulk')}`)).pagination.total).toBe(1);
    expect((await search('search=%25')).pagination.total).toBe(liveBulk.filter((i) => i % 2 === 0).length);
    expect((await search('search=_')).pagination.total).toBe(liveBulk.filter((i) => i % 2 === 1).length);
    // a raw, unencoded % in the URL, a backslash, and the tRPC procedure the web app calls: all literal
    expect((await search('search=%')).pagination.total).toBe(liveBulk.filter((i) => i % 2 === 0).length);
    expect((await search('search=%5C')).pagination.total).toBe(0);
    const overTrpc = await fetch(
      `${t.url}/trpc/adminUsers.list?input=${encodeURIComponent(JSON.stringify({ search: '%', limit: 200 }))}`,
      { headers: { authorization: `Bearer ${admin.token}` } },
    );
    expect((await overTrpc.json()).result.data.pagination.total).toBe(
      liveBulk.filter((i) => i % 2 === 0).length,
    );
    const suspended = await search('status=suspended&search=bulk');
    expect(suspended.pagination.total).toBe(liveBulk.filter((i) => i % 7 === 0).length);
    expect(suspended.users.every((u) => u.status === 'suspended')).toBe(true);
    const admins = await search('role=admin&search=bulk.test');
    expect(admins.pagination.total).toBe(liveBulk.filter((i) => i % 11 === 0).length);
    expect((await search('search=nobody-has-this')).pagination.total).toBe(0);
    // soft-deleted users are not listed
    expect((await search('search=bulk-13@')).pagination.total).toBe(0);
  });
});

describe('GET /admin/users sorted', () => {
  const list = async (q: string) => {
    const res = await api.get(`/admin/users?limit=200&search=bulk.test&${q}`, { token: admin.token });
    expect(res.status, q).toBe(200);
    return res.body.users as {
      email: string;
      firstName: string;
      status: string;
      lastLoginAt: string | null;
    }[];
  };

  it('orders by email, name, status or last sign-in, either way, and refuses unknown keys', async () => {
    const byEmail = (await list('sort=email&order=asc')).map((u) => u.email);
    expect(byEmail).toHaveLength(200);
    expect(byEmail).toEqual([...byEmail].sort());
    const desc = (await list('sort=email&order=desc')).map((u) => u.email);
    const all = liveBulk.map((i) => `bulk-${i}@bulk.test`).sort();
    expect(desc).toEqual(all.reverse().slice(0, 200));
    const names = (await list('sort=name&order=asc')).map((u) => u.firstName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const statuses = (await list('sort=status&order=desc')).map((u) => u.status);
    expect(statuses).toEqual([...statuses].sort().reverse());
    // newest sign-in first, those who never signed in last
    const logins = (await list('sort=lastLoginAt')).map((u) => u.lastLoginAt);
    const signedIn = logins.filter((l) => l !== null) as string[];
    expect(logins.slice(0, signedIn.length)).toEqual(signedIn);
    expect(signedIn).toEqual([...signedIn].sort().reverse());
    for (const q of ['sort=password', 'order=up'])
      expect((await api.get(`/admin/users?${q}`, { token: admin.token })).status, q).toBe(400);
  });
});

describe('suspend and reactivate', () => {
  const auditCount = async (targetId: string) =>
    (await t.app.svc.db.select({ n: count() }).from(auditLog).where(eq(auditLog.targetId, targetId)))[0]?.n ??
    0;

  it('suspends an active user at once, records the suspension fields, and reactivates them; one audit row each', async () => {
    const u = await activeUser(api);
    const pat = (await api.post('/auth/tokens', { name: 'ci' }, { token: u.token })).body.token as string;
    scan.knowToken(pat, { email: u.email, role: 'user' });
    const res = await api.post(`/admin/users/${u.id}/suspend`, { reason: 'spam' }, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: u.id, status: 'suspended', suspendedAt: clock.now().toISOString() });
    expect((await api.get('/auth/me', { token: u.token })).status).toBe(401); // sessions ended at once
    expect((await api.get('/auth/me', { token: pat })).status).toBe(401); // tokens refused while suspended
    const denied = await api.post('/auth/login', { email: u.email, password: PASSWORD });
    expect(denied.body.reason).toBe('ACCOUNT_SUSPENDED');
    const record = (await api.get(`/users/${u.id}`, { token: admin.token })).body;
    expect(record).toMatchObject({ status: 'suspended', suspensionReason: 'spam', suspendedBy: admin.id });
    expect(await auditCount(u.id)).toBe(1);

    // refused transitions change nothing and write nothing
    expect(
      (await api.post(`/admin/users/${u.id}/suspend`, { reason: 'again' }, { token: admin.token })).status,
    ).toBe(409);
    expect(await auditCount(u.id)).toBe(1);

    clock.advance(60_000);
    const back = await api.post(`/admin/users/${u.id}/reactivate`, undefined, { token: admin.token });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toEqual({ id: u.id, status: 'active', reactivatedAt: clock.now().toISOString() });
    const after = (await api.get(`/users/${u.id}`, { token: admin.token })).body;
    expect(after).toMatchObject({
      status: 'active',
      suspendedAt: null,
      suspensionReason: null,
      suspendedBy: null,
      reactivatedBy: admin.id,
      reactivatedAt: clock.now().toISOString(),
    });
    expect((await api.post(`/admin/users/${u.id}/reactivate`, {}, { token: admin.token })).status).toBe(409);
    expect(await auditCount(u.id)).toBe(2);
    expect((await api.post('/auth/login', { email: u.email, password: PASSWORD })).status).toBe(200);
    // the old session stays ended; the access token works again (suspension is not revocation)
    expect((await api.get('/auth/me', { token: u.token })).status).toBe(401);
    expect((await api.get('/auth/me', { token: pat })).status).toBe(200);

    const log = await api.get(`/admin/audit-log?targetId=${u.id}`, { token: admin.token });
    expect(log.body.items.map((e: { action: string }) => e.action)).toEqual([
      'user.reactivate',
      'user.suspend',
    ]);
    expect(log.body.items[1]).toMatchObject({
      actorId: admin.id,
      actorEmail: ADMIN,
      targetType: 'user',
      targetId: u.id,
      targetEmail: u.email,
      targetName: null,
      reason: 'spam',
    });
    expect(log.body.items[1].createdAt).toMatch(/Z$/);
  });

  it('writes the audit row in the same transaction: when it fails, the suspension does not happen', async () => {
    const db = t.app.svc.db;
    await db.execute(
      sql.raw(`create function plenum_test_refuse_audit() returns trigger language plpgsql as $$
        begin if new.reason = 'refuse-audit' then raise exception 'audit refused'; end if; return new; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger plenum_test_refuse_audit before insert on audit_log
        for each row execute function plenum_test_refuse_audit()`),
    );
    try {
      const u = await activeUser(api);
      const res = await api.post(
        `/admin/users/${u.id}/suspend`,
        { reason: 'refuse-audit' },
        { token: admin.token },
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
      expect((await api.get(`/users/${u.id}`, { token: u.token })).body.status).toBe('active'); // session alive too
      expect(await auditCount(u.id)).toBe(0);
    } finally {
      await db.execute(sql.raw('drop trigger plenum_test_refuse_audit on audit_log'));
      await db.execute(sql.raw('drop function plenum_test_refuse_audit()'));
    }
  });

  it('returns a pending user to pending_verification', async () => {
    const reg = await register(api);
    expect(
      (await api.post(`/admin/users/${reg.body.id}/suspend`, { reason: 'check' }, { token: admin.token }))
        .status,
    ).toBe(200);
    const back = await api.post(
      `/admin/users/${reg.body.id}/reactivate`,
      { reason: 'cleared' },
      { token: admin.token },
    );
    expect(back.body.status).toBe('pending_verification');
  });

  it('refuses self-suspension, missing users, a missing reason and non-admins', async () => {
    const self = await api.post(`/admin/users/${admin.id}/suspend`, { reason: 'x' }, { token: admin.token });
    expect(self.status).toBe(409);
    expect(self.body.reason).toBe('SELF_SUSPEND');
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect(
      (await api.post(`/admin/users/${ghost}/suspend`, { reason: 'x' }, { token: admin.token })).status,
    ).toBe(404);
    expect((await api.post(`/admin/users/${plain.id}/suspend`, {}, { token: admin.token })).status).toBe(400);
    expect(
      (await api.post(`/admin/users/${plain.id}/suspend`, { reason: '  ' }, { token: admin.token })).status,
    ).toBe(400);
    const forbidden = await api.post(
      `/admin/users/${admin.id}/suspend`,
      { reason: 'coup' },
      { token: plain.token },
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');
    expect(await auditCount(admin.id)).toBe(0);
  });

  it('lets exactly one of two simultaneous suspensions through, with one audit row', async () => {
    const u = await activeUser(api);
    const results = await Promise.all(
      [1, 2].map(() => api.post(`/admin/users/${u.id}/suspend`, { reason: 'race' }, { token: admin.token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await auditCount(u.id)).toBe(1);
  });
});

describe('GET /admin/stats', () => {
  it('equals counts made directly in the database (deleted excluded, this UTC month)', async () => {
    const db = t.app.svc.db;
    const live = isNull(users.deletedAt);
    const countWhere = async (...extra: Parameters<typeof and>) =>
      (
        await db
          .select({ n: count() })
          .from(users)
          .where(and(live, ...extra))
      )[0]?.n ?? 0;
    const [last] = await db
      .select({ at: max(users.lastLoginAt) })
      .from(users)
      .where(live);
    const expected = {
      totalUsers: await countWhere(),
      activeUsers: await countWhere(eq(users.status, 'active')),
      suspendedUsers: await countWhere(eq(users.status, 'suspended')),
      pendingVerification: await countWhere(eq(users.status, 'pending_verification')),
      registrationsThisMonth: await countWhere(gte(users.createdAt, new Date('2026-03-01T00:00:00Z'))),
      lastLoginActivity: last?.at ? new Date(last.at).toISOString() : null,
    };
    const res = await api.get('/admin/stats', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
    expect(expected.totalUsers).toBeGreaterThan(250);
    // sanity: the bulk users reach back into February, so the month filter really filters
    expect(expected.registrationsThisMonth).toBeLessThan(expected.totalUsers);
    expect(expected.registrationsThisMonth).toBeGreaterThan(0);
    expect((await api.get('/admin/stats', { token: plain.token })).status).toBe(403);
  });
});

describe('GET /admin/stats/registrations', () => {
  it('counts new accounts per UTC day like the database does, zeros included, deleted excluded', async () => {
    const db = t.app.svc.db;
    const days = 45;
    const res = await api.get(`/admin/stats/registrations?days=${days}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(days);
    const now = t.app.svc.clock.now();
    expect(res.body.days.at(-1).day).toBe(now.toISOString().slice(0, 10));
    for (const { day, count: n } of res.body.days as { day: string; count: number }[]) {
      const from = new Date(`${day}T00:00:00Z`);
      const [row] = await db
        .select({ n: count() })
        .from(users)
        .where(
          and(
            isNull(users.deletedAt),
            gte(users.createdAt, from),
            lt(users.createdAt, new Date(+from + 86_400_000)),
          ),
        );
      expect(n, day).toBe(row?.n ?? 0);
    }
    expect(res.body.total).toBe(res.body.days.reduce((s: number, d: { count: number }) => s + d.count, 0));
    // the bulk users spread over several days, so this is more than one bar
    expect(res.body.days.filter((d: { count: number }) => d.count > 0).length).toBeGreaterThan(1);

    expect((await api.get('/admin/stats/registrations', { token: admin.token })).body.days).toHaveLength(30);
    expect((await api.get('/admin/stats/registrations?days=0', { token: admin.token })).status).toBe(400);
    expect((await api.get('/admin/stats/registrations?days=400', { token: admin.token })).status).toBe(400);
    expect((await api.get('/admin/stats/registrations', { token: plain.token })).status).toBe(403);
    expect((await api.get('/admin/stats/registrations')).status).toBe(401);
  });
});

describe('GET /admin/audit-log', () => {
  it('pages newest first', async () => {
    const res = await api.get('/admin/audit-log?limit=2', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.pagination.total).toBeGreaterThanOrEqual(5);
    const times = res.body.items.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect(times[0]).toBeGreaterThanOrEqual(times[1]);
    expect((await api.get('/admin/audit-log', { token: plain.token })).status).toBe(403);
  });

  it('shows command-line role changes with no actor', async () => {
    const u = await activeUser(api);
    await setRoleByEmail(t.app.svc, { email: u.email, role: 'admin' });
    const res = await api.get(`/admin/audit-log?action=user.grant_admin&targetId=${u.id}`, {
      token: admin.token,
    });
    expect(res.body.items).toEqual([
      expect.objectContaining({ actorId: null, actorEmail: null, targetId: u.id, reason: 'command line' }),
    ]);
  });
});

it('no response of this file leaked a secret or another user’s email', () => {
  expect(scan.violations()).toEqual([]);
});
