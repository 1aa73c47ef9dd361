import { daoRoles, events, governanceHistory } from '@plenum/db';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { linkWallet, memberUser, newWallet } from './support/factories';
import { addMember, createDao, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Roles per DAO (docs/governance.md, "Roles"): the owner and admins grant and take admin, moderator and
 * author; one role per address; the owner's role is not one to change; only the owner touches another
 * admin's role; every change a history entry and a dao_updated event; concurrent changes end consistent.
 */
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

type Change = Record<string, { from: unknown; to: unknown }>;
const put = (daoId: string, address: string, body: unknown, token?: string) =>
  api.put(`/daos/${daoId}/roles/${address}`, body, token ? { token } : {});
const del = (daoId: string, address: string, token?: string, query = '') =>
  api.delete(`/daos/${daoId}/roles/${address}${query}`, token ? { token } : {});
async function setRole(by: Member, daoId: string, address: string, role: string) {
  const res = await put(daoId, address, { role }, by.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function roleHistory(daoId: string) {
  const res = await api.get(`/daos/${daoId}/history?limit=200`);
  expect(res.status).toBe(200);
  return (res.body.items as { actorAddress: string; changes: Change }[]).filter((e) =>
    Object.keys(e.changes).some((k) => k.startsWith('roles.')),
  );
}
async function rolesOf(daoId: string) {
  const res = await api.get(`/daos/${daoId}/roles?limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    items: { address: string; role: string; grantedBy: string | null }[];
    pagination: { total: number };
  };
}
async function ownerAndDao() {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner);
  return { owner, dao };
}

describe('PUT /daos/{daoId}/roles/{address}', () => {
  it('the owner grants a role: 200 with it, listed, on the DAO, in the history, one event', async () => {
    const { owner, dao } = await ownerAndDao();
    const someone = newWallet().address;
    const res = await put(dao.daoId, someone.toLowerCase(), { role: 'moderator' }, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      address: someone,
      role: 'moderator',
      grantedBy: owner.wallet.address,
      grantedAt: expect.any(String),
    });
    expect((await rolesOf(dao.daoId)).items).toEqual([res.body]);
    const got = (await api.get(`/daos/${dao.daoId}`)).body;
    expect(got.roles).toEqual([{ address: someone, role: 'moderator' }]);
    // a role needs no membership
    expect(got.members).toEqual([owner.wallet.address]);
    const changes = { [`roles.${someone}`]: { from: null, to: 'moderator' } };
    expect(await roleHistory(dao.daoId)).toEqual([
      { changedAt: res.body.grantedAt, actorAddress: owner.wallet.address, changes },
    ]);
    const evs = await t.app.svc.db
      .select()
      .from(events)
      .where(and(eq(events.daoId, dao.daoId), eq(events.type, 'dao_updated')));
    expect(evs.map((e) => e.data)).toEqual([
      { daoId: dao.daoId, actorAddress: owner.wallet.address, changes },
    ]);
  });

  it('a second role replaces the first (one role per address); the same role again writes nothing', async () => {
    const { owner, dao } = await ownerAndDao();
    const someone = newWallet().address;
    await setRole(owner, dao.daoId, someone, 'author');
    await setRole(owner, dao.daoId, someone, 'admin');
    const same = await setRole(owner, dao.daoId, someone, 'admin');
    expect(same.role).toBe('admin');
    expect((await rolesOf(dao.daoId)).items.map((r) => [r.address, r.role])).toEqual([[someone, 'admin']]);
    expect((await roleHistory(dao.daoId)).map((e) => e.changes[`roles.${someone}`])).toEqual([
      { from: 'author', to: 'admin' },
      { from: null, to: 'author' },
    ]);
  });

  it('an admin grants roles, admin too, and changes its own; it cannot touch another admin; the owner can', async () => {
    const { owner, dao } = await ownerAndDao();
    const [admin, other] = await Promise.all([memberUser(api), memberUser(api)]);
    await setRole(owner, dao.daoId, admin.wallet.address, 'admin');
    const mod = newWallet().address;
    await setRole(admin, dao.daoId, mod, 'moderator');
    await setRole(admin, dao.daoId, other.wallet.address, 'admin');
    for (const res of [
      await put(dao.daoId, other.wallet.address, { role: 'author' }, admin.token),
      await del(dao.daoId, other.wallet.address, admin.token),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.reason).toBe('NOT_DAO_ADMIN');
    }
    expect((await del(dao.daoId, mod, admin.token)).status).toBe(204);
    // the owner may change any admin's role
    await setRole(owner, dao.daoId, other.wallet.address, 'author');
    // an admin may step down itself
    await setRole(admin, dao.daoId, admin.wallet.address, 'moderator');
    const now = await put(dao.daoId, newWallet().address, { role: 'author' }, admin.token);
    expect(now.status).toBe(403);
    const held = (await rolesOf(dao.daoId)).items.map((r) => `${r.address} ${r.role}`);
    expect(held.sort()).toEqual(
      [`${admin.wallet.address} moderator`, `${other.wallet.address} author`].sort(),
    );
  });

  it('an admin may do what the owner does with members', async () => {
    const { owner, dao } = await ownerAndDao();
    const admin = await memberUser(api);
    expect(
      (
        await api.post(
          `/daos/${dao.daoId}/members`,
          { memberAddress: newWallet().address },
          { token: admin.token },
        )
      ).status,
    ).toBe(403);
    await setRole(owner, dao.daoId, admin.wallet.address, 'admin');
    await addMember(api, admin, dao.daoId, newWallet().address);
  });

  it('an admin switches the DAO’s status as the owner does; a moderator cannot (403 NOT_OWNER)', async () => {
    const { owner, dao } = await ownerAndDao();
    const [admin, moderator] = [await memberUser(api), await memberUser(api)];
    await setRole(owner, dao.daoId, admin.wallet.address, 'admin');
    await setRole(owner, dao.daoId, moderator.wallet.address, 'moderator');
    const status = (who: Member, body: Record<string, unknown>) =>
      api.post(`/daos/${dao.daoId}/status`, body, { token: who.token });
    const refused = await status(moderator, { status: 'INACTIVE' });
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('NOT_OWNER');
    // an actorAddress that is not the caller's
    const foreign = await status(admin, { status: 'INACTIVE', actorAddress: owner.wallet.address });
    expect(foreign.status).toBe(403);
    expect(foreign.body.reason).toBe('NOT_YOUR_ADDRESS');
    const done = await status(admin, { status: 'INACTIVE', actorAddress: admin.wallet.address });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe('INACTIVE');
    const history = (await api.get(`/daos/${dao.daoId}/history`)).body.items;
    expect(history[0]).toMatchObject({
      actorAddress: admin.wallet.address,
      changes: { status: { from: 'ACTIVE', to: 'INACTIVE' } },
    });
  });

  it('the owner’s role cannot be set or removed: 409 OWNER_ROLE, for the owner and for an admin', async () => {
    const { owner, dao } = await ownerAndDao();
    const admin = await memberUser(api);
    await setRole(owner, dao.daoId, admin.wallet.address, 'admin');
    for (const by of [owner, admin]) {
      for (const res of [
        await put(dao.daoId, owner.wallet.address, { role: 'author' }, by.token),
        await del(dao.daoId, owner.wallet.address, by.token),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(409);
        expect(res.body).toMatchObject({ code: 'CONFLICT', reason: 'OWNER_ROLE' });
      }
    }
    expect((await rolesOf(dao.daoId)).items).toHaveLength(1);
  });

  it('only the owner and admins: moderator, author, member, stranger 403 NOT_DAO_ADMIN; signed out 401', async () => {
    const { owner, dao } = await ownerAndDao();
    const [moderator, author, member, stranger] = await Promise.all([
      memberUser(api),
      memberUser(api),
      memberUser(api),
      memberUser(api),
    ]);
    await setRole(owner, dao.daoId, moderator.wallet.address, 'moderator');
    await setRole(owner, dao.daoId, author.wallet.address, 'author');
    await addMember(api, owner, dao.daoId, member.wallet.address);
    const target = newWallet().address;
    for (const who of [moderator, author, member, stranger]) {
      for (const res of [
        await put(dao.daoId, target, { role: 'admin' }, who.token),
        await put(dao.daoId, who.wallet.address, { role: 'admin' }, who.token),
        await del(dao.daoId, moderator.wallet.address, who.token),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(res.body.reason).toBe('NOT_DAO_ADMIN');
      }
    }
    expect((await put(dao.daoId, target, { role: 'admin' })).status).toBe(401);
    expect((await del(dao.daoId, moderator.wallet.address)).status).toBe(401);
    expect((await rolesOf(dao.daoId)).items.map((r) => r.role)).toEqual(['moderator', 'author']);
  });

  it('acts through actorAddress, which must be the caller’s (403 NOT_YOUR_ADDRESS)', async () => {
    const { owner, dao } = await ownerAndDao();
    const second = await linkWallet(api, owner);
    const target = newWallet().address;
    const notMine = await put(
      dao.daoId,
      target,
      { role: 'author', actorAddress: newWallet().address },
      owner.token,
    );
    expect(notMine.status).toBe(403);
    expect(notMine.body.reason).toBe('NOT_YOUR_ADDRESS');
    const roleless = await put(
      dao.daoId,
      target,
      { role: 'author', actorAddress: second.address },
      owner.token,
    );
    expect(roleless.status).toBe(403);
    expect(roleless.body.reason).toBe('NOT_DAO_ADMIN');
    const ok = await put(
      dao.daoId,
      target,
      { role: 'author', actorAddress: owner.wallet.address },
      owner.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.grantedBy).toBe(owner.wallet.address);
    const gone = await del(dao.daoId, target, owner.token, `?actorAddress=${newWallet().address}`);
    expect(gone.status).toBe(403);
    expect(gone.body.reason).toBe('NOT_YOUR_ADDRESS');
  });

  it.each([
    ['no role', {}, 'role'],
    ['an unknown role', { role: 'owner' }, 'role'],
    ['an unknown field', { role: 'admin', grantedBy: '0x0' }, ''],
  ])('400 for %s', async (_n, body, field) => {
    const { owner, dao } = await ownerAndDao();
    const res = await put(dao.daoId, newWallet().address, body, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
  });

  it('400 for a bad address, 404 for an unknown DAO', async () => {
    const { owner, dao } = await ownerAndDao();
    expect((await put(dao.daoId, '0x123', { role: 'admin' }, owner.token)).status).toBe(400);
    expect((await del(dao.daoId, '0x123', owner.token)).status).toBe(400);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await put(unknown, newWallet().address, { role: 'admin' }, owner.token)).status).toBe(404);
    expect((await del(unknown, newWallet().address, owner.token)).status).toBe(404);
    expect((await api.get(`/daos/${unknown}/roles`)).status).toBe(404);
  });
});

describe('DELETE /daos/{daoId}/roles/{address}', () => {
  it('204, gone from the list and the DAO, in the history; 404 when the address holds no role', async () => {
    const { owner, dao } = await ownerAndDao();
    const someone = newWallet().address;
    await setRole(owner, dao.daoId, someone, 'author');
    const res = await del(dao.daoId, someone, owner.token);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await rolesOf(dao.daoId)).items).toEqual([]);
    expect((await api.get(`/daos/${dao.daoId}`)).body.roles).toEqual([]);
    expect((await roleHistory(dao.daoId))[0]!.changes).toEqual({
      [`roles.${someone}`]: { from: 'author', to: null },
    });
    const again = await del(dao.daoId, someone, owner.token);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });
});

describe('GET /daos/{daoId}/roles', () => {
  it('is public and paged, in the order granted', async () => {
    const { owner, dao } = await ownerAndDao();
    const addresses = [newWallet().address, newWallet().address, newWallet().address];
    for (const a of addresses) await setRole(owner, dao.daoId, a, 'author');
    const page = await api.get(`/daos/${dao.daoId}/roles?page=2&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((r: { address: string }) => r.address)).toEqual([addresses[2]]);
    expect(page.body.pagination).toMatchObject({ total: 3, page: 2, limit: 2, totalPages: 2 });
  });
});

describe('concurrent role changes', () => {
  it('many PUTs and DELETEs at once end consistent: one row per address, one history entry per applied change', async () => {
    const { owner, dao } = await ownerAndDao();
    const admin = await memberUser(api);
    await setRole(owner, dao.daoId, admin.wallet.address, 'admin');
    const targets = Array.from({ length: 4 }, () => newWallet().address);
    const roles = ['author', 'moderator', 'admin'];
    const ops = Array.from({ length: 40 }, (_, i) => {
      const target = targets[i % targets.length]!;
      // the owner does every third change, so that an admin target can be changed at all
      const by = i % 3 === 0 ? owner : admin;
      return i % 4 === 3
        ? del(dao.daoId, target, by.token).then((r) => ({
            kind: 'del',
            target,
            status: r.status,
            reason: r.body?.reason,
          }))
        : put(dao.daoId, target, { role: roles[i % 3] }, by.token).then((r) => ({
            kind: 'put',
            target,
            status: r.status,
            reason: r.body?.reason,
          }));
    });
    const answers = await Promise.all(ops);
    for (const a of answers) {
      // refused only for the reasons the rules give: an admin meeting another admin, a role already gone
      if (a.kind === 'put') expect([200, 403], JSON.stringify(a)).toContain(a.status);
      else expect([204, 403, 404], JSON.stringify(a)).toContain(a.status);
      if (a.status === 403) expect(a.reason).toBe('NOT_DAO_ADMIN');
    }
    const history = (await roleHistory(dao.daoId)).reverse();
    const final = new Map((await rolesOf(dao.daoId)).items.map((r) => [r.address, r.role]));
    for (const target of targets) {
      // each address's entries chain: each starts where the one before it ended, and the last is the row
      let role: unknown = null;
      for (const e of history) {
        const c = e.changes[`roles.${target}`];
        if (!c) continue;
        expect(c.from).toBe(role);
        expect(c.to).not.toBe(c.from);
        role = c.to;
      }
      expect(final.get(target) ?? null).toBe(role);
    }
    const deletes = answers.filter((a) => a.kind === 'del' && a.status === 204).length;
    expect(history.filter((e) => Object.values(e.changes)[0]!.to === null)).toHaveLength(deletes);
    const db = t.app.svc.db;
    const [rows] = await db.select({ n: count() }).from(daoRoles).where(eq(daoRoles.daoId, dao.daoId));
    expect(Number(rows!.n)).toBe(final.size);
    const [entries] = await db
      .select({ n: count() })
      .from(governanceHistory)
      .where(eq(governanceHistory.daoId, dao.daoId));
    const [evs] = await db
      .select({ n: count() })
      .from(events)
      .where(and(eq(events.daoId, dao.daoId), eq(events.type, 'dao_updated')));
    expect(Number(entries!.n)).toBe(history.length);
    expect(Number(evs!.n)).toBe(Number(entries!.n));
  });
});
