import { acceptOwnership } from '@plenum/core';
import { daoRoles, users } from '@plenum/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { activeUser, linkWallet, memberUser, newWallet, type TestUser } from './support/factories';
import { addMember, createDao, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/** Ownership transfer in two steps (docs/governance.md, "Ownership"), over real HTTP. */

const ADMIN = 'ownership-admin@example.org';
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url);
  admin = await activeUser(api, { email: ADMIN });
});
afterAll(() => t.close());

type Row = Record<string, unknown>;
async function query(q: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await t.app.dbHandle.db.execute(q)) as unknown;
  return (Array.isArray(res) ? res : (res as { rows: Row[] }).rows) as Row[];
}

const history = (daoId: string) =>
  query(
    sql`select actor_address, changes from governance_history where dao_id = ${daoId} and proposal_id is null order by id`,
  );
const updates = (daoId: string) =>
  query(sql`select data from events where dao_id = ${daoId} and type = 'dao_updated' order by id`);

const transfer = (owner: Member, daoId: string, to: string) =>
  api.post(`/daos/${daoId}/owner`, { newOwnerAddress: to }, { token: owner.token });
const accept = (who: TestUser, daoId: string, body: Record<string, unknown> = {}) =>
  api.post(`/daos/${daoId}/owner/accept`, body, { token: who.token });
const withdraw = (who: TestUser, daoId: string) =>
  api.delete(`/daos/${daoId}/owner/pending`, { token: who.token });

async function ownedDao() {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner);
  return { owner, daoId: dao.daoId };
}

describe('POST /daos/{daoId}/owner', () => {
  it('the owner names a new owner (202); a second transfer replaces the first; recorded and announced', async () => {
    const { owner, daoId } = await ownedDao();
    const first = newWallet().address;
    const res = await transfer(owner, daoId, first.toLowerCase());
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({
      daoId,
      ownerAddress: owner.wallet.address,
      pendingOwner: { address: first, requestedAt: expect.any(String) },
    });
    const dao = (await api.get(`/daos/${daoId}`)).body;
    expect(dao.pendingOwner).toEqual(res.body.pendingOwner);
    expect(dao.ownerAddress).toBe(owner.wallet.address);

    const second = newWallet().address;
    expect((await transfer(owner, daoId, second)).status).toBe(202);
    expect((await api.get(`/daos/${daoId}`)).body.pendingOwner.address).toBe(second);
    expect(await history(daoId)).toEqual([
      { actor_address: owner.wallet.address, changes: { pendingOwner: { from: null, to: first } } },
      { actor_address: owner.wallet.address, changes: { pendingOwner: { from: first, to: second } } },
    ]);
    expect((await updates(daoId)).map((e) => e.data)).toEqual([
      {
        daoId,
        actorAddress: owner.wallet.address,
        changes: { pendingOwner: { from: null, to: first } },
      },
      {
        daoId,
        actorAddress: owner.wallet.address,
        changes: { pendingOwner: { from: first, to: second } },
      },
    ]);
  });

  it('refuses everyone but the owner (an admin too), the owner itself, bad input and unknown DAOs', async () => {
    const { owner, daoId } = await ownedDao();
    const other = await memberUser(api);
    const to = newWallet().address;
    const stranger = await transfer(other, daoId, to);
    expect(stranger.status).toBe(403);
    expect(stranger.body.reason).toBe('NOT_DAO_ADMIN');
    // a DAO admin does everything the owner does except this
    await t.app.svc.db
      .insert(daoRoles)
      .values({ daoId, address: other.wallet.address, role: 'admin', grantedBy: owner.wallet.address });
    const byAdmin = await transfer(other, daoId, to);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.reason).toBe('NOT_DAO_ADMIN');
    const self = await transfer(owner, daoId, owner.wallet.address.toLowerCase());
    expect(self.status).toBe(409);
    expect(self.body.reason).toBe('ALREADY_OWNER');
    expect((await api.post(`/daos/${daoId}/owner`, { newOwnerAddress: to })).status).toBe(401);
    const bad = await transfer(owner, daoId, '0x1234');
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toContain('newOwnerAddress');
    const extra = await api.post(
      `/daos/${daoId}/owner`,
      { newOwnerAddress: to, ownerAddress: to },
      { token: owner.token },
    );
    expect(extra.status).toBe(400);
    const notMine = await api.post(
      `/daos/${daoId}/owner`,
      { newOwnerAddress: to, actorAddress: other.wallet.address },
      { token: owner.token },
    );
    expect(notMine.status).toBe(403);
    expect(notMine.body.reason).toBe('NOT_YOUR_ADDRESS');
    expect((await transfer(owner, '00000000-0000-4000-8000-000000000000', to)).status).toBe(404);
    // nothing of it was written
    expect((await api.get(`/daos/${daoId}`)).body.pendingOwner).toBeNull();
    expect(await history(daoId)).toEqual([]);
  });
});

describe('POST /daos/{daoId}/owner/accept', () => {
  it('makes the holder the owner and a member, the old owner an admin, with history and event', async () => {
    const { owner, daoId } = await ownedDao();
    const next = await memberUser(api);
    // the new owner held a role: the owner holds none
    await addMember(api, owner, daoId, next.wallet.address);
    await t.app.svc.db
      .insert(daoRoles)
      .values({ daoId, address: next.wallet.address, role: 'moderator', grantedBy: owner.wallet.address });
    expect((await transfer(owner, daoId, next.wallet.address)).status).toBe(202);
    const res = await accept(next, daoId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      daoId,
      ownerAddress: next.wallet.address,
      pendingOwner: null,
      roles: [{ address: owner.wallet.address, role: 'admin' }],
      memberCount: 2,
    });
    expect(res.body.members.sort()).toEqual([owner.wallet.address, next.wallet.address].sort());
    const [role] = await t.app.svc.db.select().from(daoRoles).where(eq(daoRoles.daoId, daoId));
    expect(role).toMatchObject({ address: owner.wallet.address, role: 'admin', grantedBy: null });
    const changes = {
      ownerAddress: { from: owner.wallet.address, to: next.wallet.address },
      pendingOwner: { from: next.wallet.address, to: null },
    };
    expect((await history(daoId)).at(-1)).toEqual({ actor_address: next.wallet.address, changes });
    expect((await updates(daoId)).at(-1)?.data).toEqual({
      daoId,
      actorAddress: next.wallet.address,
      changes,
    });

    // the new owner transfers; the old one, now an admin, manages members but no longer transfers
    const old = await transfer(owner, daoId, newWallet().address);
    expect(old.status).toBe(403);
    expect(old.body.reason).toBe('NOT_DAO_ADMIN');
    const bareWallet = newWallet().address;
    expect((await addMember(api, owner, daoId, bareWallet)).memberAddress).toBe(bareWallet);
    expect((await transfer(next, daoId, owner.wallet.address)).status).toBe(202);
  });

  it('a new owner who was not a member becomes one; a caller with several wallets names one or is found', async () => {
    const { owner, daoId } = await ownedDao();
    const next = await memberUser(api);
    const second = await linkWallet(api, next);
    expect((await transfer(owner, daoId, second.address)).status).toBe(202);
    const wrong = await accept(next, daoId, { address: next.wallet.address });
    expect(wrong.status).toBe(409);
    expect(wrong.body.reason).toBe('NO_PENDING_TRANSFER');
    const notMine = await accept(next, daoId, { address: owner.wallet.address });
    expect(notMine.status).toBe(403);
    expect(notMine.body.reason).toBe('NOT_YOUR_ADDRESS');
    const res = await accept(next, daoId, { address: second.address.toLowerCase() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ownerAddress).toBe(second.address);
    expect(res.body.members).toContain(second.address);
    expect(res.body.memberCount).toBe(2);
  });

  it('409 NO_PENDING_TRANSFER when none was made, it was withdrawn, replaced, or already accepted', async () => {
    const { owner, daoId } = await ownedDao();
    const next = await memberUser(api);
    const none = await accept(next, daoId);
    expect(none.status).toBe(409);
    expect(none.body.reason).toBe('NO_PENDING_TRANSFER');

    await transfer(owner, daoId, next.wallet.address);
    expect((await withdraw(owner, daoId)).status).toBe(200);
    expect((await accept(next, daoId)).body.reason).toBe('NO_PENDING_TRANSFER');

    await transfer(owner, daoId, next.wallet.address);
    const third = await memberUser(api);
    await transfer(owner, daoId, third.wallet.address);
    const replaced = await accept(next, daoId);
    expect(replaced.status).toBe(409);
    expect(replaced.body.reason).toBe('NO_PENDING_TRANSFER');
    // someone not named at all
    expect((await accept(owner, daoId)).status).toBe(409);

    expect((await accept(third, daoId)).status).toBe(200);
    const again = await accept(third, daoId);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('NO_PENDING_TRANSFER');
    expect((await api.get(`/daos/${daoId}`)).body.ownerAddress).toBe(third.wallet.address);
    expect((await api.post(`/daos/${daoId}/owner/accept`, {})).status).toBe(401);
    expect((await accept(third, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('a suspended or deleted account cannot accept, also when the change lands during the request', async () => {
    const { owner, daoId } = await ownedDao();
    const next = await memberUser(api);
    await transfer(owner, daoId, next.wallet.address);
    const suspended = await api.post(
      `/admin/users/${next.id}/suspend`,
      { reason: 'spam' },
      { token: admin.token },
    );
    expect(suspended.status).toBe(200);
    // suspension ends the sessions
    expect((await accept(next, daoId)).status).toBe(401);

    // the check inside the transaction: the session was still good when the request began
    const db = t.app.svc.db;
    await expect(acceptOwnership(t.app.svc, { userId: next.id, daoId })).rejects.toHaveProperty(
      'reason',
      'ACCOUNT_SUSPENDED',
    );
    await db.update(users).set({ status: 'active', deletedAt: new Date() }).where(eq(users.id, next.id));
    await expect(acceptOwnership(t.app.svc, { userId: next.id, daoId })).rejects.toHaveProperty(
      'reason',
      'ACCOUNT_DELETED',
    );
    expect((await api.get(`/daos/${daoId}`)).body).toMatchObject({
      ownerAddress: owner.wallet.address,
      pendingOwner: { address: next.wallet.address },
    });
  });
});

describe('DELETE /daos/{daoId}/owner/pending', () => {
  it('the owner withdraws (200, recorded); 409 when none is pending; others 403', async () => {
    const { owner, daoId } = await ownedDao();
    const to = newWallet().address;
    const none = await withdraw(owner, daoId);
    expect(none.status).toBe(409);
    expect(none.body.reason).toBe('NO_PENDING_TRANSFER');
    await transfer(owner, daoId, to);
    const other = await memberUser(api);
    const refused = await withdraw(other, daoId);
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('NOT_DAO_ADMIN');
    const res = await withdraw(owner, daoId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ daoId, ownerAddress: owner.wallet.address, pendingOwner: null });
    expect((await history(daoId)).at(-1)).toEqual({
      actor_address: owner.wallet.address,
      changes: { pendingOwner: { from: to, to: null } },
    });
    expect((await updates(daoId)).length).toBe(2);
    expect((await withdraw(owner, daoId)).status).toBe(409);
  });
});

describe('account deletion and ownership', () => {
  it('the owner stays blocked while a transfer is pending; the pending owner is not; after it the new one is', async () => {
    const { owner, daoId } = await ownedDao();
    const next = await memberUser(api);
    const bystander = await memberUser(api);
    await transfer(owner, daoId, bystander.wallet.address);
    // a pending transfer owns nothing yet: its address's account may go (the transfer then waits for
    // nobody, and the owner withdraws or replaces it)
    expect((await api.delete(`/users/${bystander.id}`, { token: bystander.token })).status).toBe(204);
    const blocked = await api.delete(`/users/${owner.id}`, { token: owner.token });
    expect(blocked.status).toBe(409);
    expect(blocked.body.reason).toBe('HAS_ACTIVE_DEPENDENCIES');

    await transfer(owner, daoId, next.wallet.address);
    expect((await accept(next, daoId)).status).toBe(200);
    const nowBlocked = await api.delete(`/users/${next.id}`, { token: next.token });
    expect(nowBlocked.status).toBe(409);
    expect(nowBlocked.body.reason).toBe('HAS_ACTIVE_DEPENDENCIES');
    // the old owner is an admin now, which does not hold the DAO up
    expect((await api.delete(`/users/${owner.id}`, { token: owner.token })).status).toBe(204);
  });
});

describe.runIf(TEST_DB === 'postgres')('races on PostgreSQL', () => {
  it('20 accepts at once: one 200, nineteen 409, one history entry', async () => {
    const { owner, daoId } = await ownedDao();
    const next = await memberUser(api);
    await transfer(owner, daoId, next.wallet.address);
    const results = await Promise.all(Array.from({ length: 20 }, () => accept(next, daoId)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    expect(
      results.filter((r) => r.status === 409).every((r) => r.body.reason === 'NO_PENDING_TRANSFER'),
    ).toBe(true);
    const accepted = (await history(daoId)).filter((h) => 'ownerAddress' in (h.changes as object));
    expect(accepted.length).toBe(1);
    const roles = await t.app.svc.db.select().from(daoRoles).where(eq(daoRoles.daoId, daoId));
    expect(roles.map((r) => [r.address, r.role])).toEqual([[owner.wallet.address, 'admin']]);
  });

  it('an accept racing the account deletion: never both, the DAO never owned by a deleted account', async () => {
    for (let round = 0; round < 8; round++) {
      const { owner, daoId } = await ownedDao();
      const next = await memberUser(api);
      await transfer(owner, daoId, next.wallet.address);
      const [a, d] = await Promise.all([
        accept(next, daoId),
        api.delete(`/users/${next.id}`, { token: next.token }),
      ]);
      const outcome = `${a.status} ${d.status}`;
      // accepted first: the new owner's deletion is blocked; deleted first: the accept finds no account
      expect(['200 409', '401 204'], JSON.stringify([a.body, d.body])).toContain(outcome);
      const dao = (await api.get(`/daos/${daoId}`)).body;
      expect(dao.ownerAddress).toBe(a.status === 200 ? next.wallet.address : owner.wallet.address);
    }
  });

  it('an accept racing the pending owner added as a member, alone and in bulk: no deadlock, one member row', async () => {
    for (let round = 0; round < 8; round++) {
      const { owner, daoId } = await ownedDao();
      const next = await memberUser(api);
      await transfer(owner, daoId, next.wallet.address);
      const [a, one, many] = await Promise.all([
        accept(next, daoId),
        api.post(`/daos/${daoId}/members`, { memberAddress: next.wallet.address }, { token: owner.token }),
        api.post(
          `/daos/${daoId}/members/bulk`,
          { addresses: [newWallet().address, next.wallet.address, newWallet().address] },
          { token: owner.token },
        ),
      ]);
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      // the old owner stays an admin: its adds are allowed before and after the acceptance
      expect([201, 409], JSON.stringify(one.body)).toContain(one.status);
      expect(many.status, JSON.stringify(many.body)).toBe(200);
      const rows = await query(
        sql`select count(*)::int as n from dao_members where dao_id = ${daoId} and address = ${next.wallet.address}`,
      );
      expect(rows[0]?.n).toBe(1);
      const dao = (await api.get(`/daos/${daoId}`)).body;
      expect(dao.ownerAddress).toBe(next.wallet.address);
      expect(dao.memberCount).toBe(dao.members.length);
    }
  });

  it('an accept racing a withdrawal: exactly one of them happens, every time', async () => {
    for (let round = 0; round < 8; round++) {
      const { owner, daoId } = await ownedDao();
      const next = await memberUser(api);
      await transfer(owner, daoId, next.wallet.address);
      const [a, w] = await Promise.all([accept(next, daoId), withdraw(owner, daoId)]);
      // accepted first: the one withdrawing is no longer the owner; withdrawn first: nothing to accept
      const outcome = [a.status, a.body.reason ?? null, w.status, w.body.reason ?? null];
      expect([
        [200, null, 403, 'NOT_DAO_ADMIN'],
        [409, 'NO_PENDING_TRANSFER', 200, null],
      ]).toContainEqual(outcome);
      const dao = (await api.get(`/daos/${daoId}`)).body;
      expect(dao.pendingOwner).toBeNull();
      expect(dao.ownerAddress).toBe(a.status === 200 ? next.wallet.address : owner.wallet.address);
      // the loser refused: nothing of it in the history
      expect((await history(daoId)).length).toBe(2);
    }
  });
});
