import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { activeUser, memberUser, type TestUser } from './support/factories';
import { createDao, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * The admin's decision on a PENDING DAO (docs/governance.md, "Approval"): approve or reject, audited,
 * mailed to the owner, in the DAO's history; and the status changes after it.
 */

const ADMIN = 'reject-admin@example.org';
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ env: { DAO_APPROVAL_REQUIRED: 'true', ADMIN_EMAILS: ADMIN } });
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
const mailsTo = (email: string) =>
  query(
    sql`select subject, text, html from email_outbox where "to" = ${email} and subject like '%Your DAO%'`,
  );
const audits = (daoId: string) =>
  query(sql`select action, actor_id, reason from audit_log where target_id = ${daoId} order by id`);

const reject = (who: TestUser, daoId: string, reason: unknown = 'Looks like spam') =>
  api.post(`/admin/daos/${daoId}/reject`, { reason }, { token: who.token });
const approve = (who: TestUser, daoId: string) =>
  api.post(`/admin/daos/${daoId}/approve`, undefined, { token: who.token });

async function pendingDao(name = `Pending ${Math.random().toString(36).slice(2, 8)}`) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, undefined, { name });
  expect(dao.status).toBe('PENDING');
  return { owner, daoId: dao.daoId, name };
}

describe('POST /admin/daos/{daoId}/reject', () => {
  it('rejects a PENDING DAO: INACTIVE with the reason, audited, mailed, in the history', async () => {
    const { owner, daoId, name } = await pendingDao();
    const res = await reject(admin, daoId, '  Not about governance  ');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ daoId, status: 'INACTIVE', rejectionReason: 'Not about governance' });
    expect((await api.get(`/daos/${daoId}`)).body.rejectionReason).toBe('Not about governance');
    expect(await audits(daoId)).toEqual([
      { action: 'dao.reject', actor_id: admin.id, reason: 'Not about governance' },
    ]);
    const mails = await mailsTo(owner.email);
    expect(mails.length).toBe(1);
    expect(mails[0]!.subject).toBe(`Your DAO ${name} was not approved`);
    expect(mails[0]!.text).toContain('Reason: Not about governance');
    expect(mails[0]!.text).toContain(`http://localhost:3000/daos/${daoId}`);
    expect(await history(daoId)).toEqual([
      {
        actor_address: null,
        changes: {
          status: { from: 'PENDING', to: 'INACTIVE' },
          rejectionReason: { from: null, to: 'Not about governance' },
        },
      },
    ]);
    const [event] = await query(
      sql`select data from events where dao_id = ${daoId} and type = 'dao_updated'`,
    );
    expect(event?.data).toMatchObject({ daoId, actorAddress: null, changes: { status: { to: 'INACTIVE' } } });

    // decided: a second decision either way is 409, and writes nothing
    for (const again of [await reject(admin, daoId), await approve(admin, daoId)]) {
      expect(again.status).toBe(409);
      expect(again.body.reason).toBe('DAO_NOT_PENDING');
    }
    expect((await audits(daoId)).length).toBe(1);
    expect((await mailsTo(owner.email)).length).toBe(1);
  });

  it('only an admin; a reason is required; unknown DAOs 404', async () => {
    const { owner, daoId } = await pendingDao();
    const byOwner = await reject(owner, daoId);
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.reason).toBe('ADMIN_ONLY');
    expect((await api.post(`/admin/daos/${daoId}/reject`, { reason: 'x' })).status).toBe(401);
    for (const body of [
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(1001) },
      { reason: 42 },
    ]) {
      const res = await api.post(`/admin/daos/${daoId}/reject`, body, { token: admin.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain('reason');
    }
    expect((await reject(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.get(`/daos/${daoId}`)).body).toMatchObject({
      status: 'PENDING',
      rejectionReason: null,
    });
  });

  it('a rejected DAO comes back only through an admin, which clears the reason', async () => {
    const { owner, daoId } = await pendingDao();
    await reject(admin, daoId);
    const byOwner = await api.post(`/daos/${daoId}/status`, { status: 'ACTIVE' }, { token: owner.token });
    expect(byOwner.status).toBe(409);
    expect(byOwner.body.reason).toBe('DAO_PENDING_APPROVAL');
    const byAdmin = await api.post(`/daos/${daoId}/status`, { status: 'ACTIVE' }, { token: admin.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ status: 'ACTIVE', rejectionReason: null });
    // the owner's own switches are in the history with the owner's address
    const off = await api.post(`/daos/${daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect(off.status).toBe(200);
    expect((await history(daoId)).slice(1)).toEqual([
      { actor_address: null, changes: { status: { from: 'INACTIVE', to: 'ACTIVE' } } },
      { actor_address: owner.wallet.address, changes: { status: { from: 'ACTIVE', to: 'INACTIVE' } } },
    ]);
    // the same status again changes nothing and records nothing
    await api.post(`/daos/${daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect((await history(daoId)).length).toBe(3);
  });
});

describe('approval', () => {
  it('mails the owner and records the change; an owner without an account gets no mail', async () => {
    const { owner, daoId, name } = await pendingDao();
    const res = await approve(admin, daoId);
    expect(res.status).toBe(200);
    const mails = await mailsTo(owner.email);
    expect(mails.map((m) => m.subject)).toEqual([`Your DAO ${name} is approved`]);
    expect(mails[0]!.text).not.toContain('Reason');
    expect(await history(daoId)).toEqual([
      { actor_address: null, changes: { status: { from: 'PENDING', to: 'ACTIVE' } } },
    ]);

    // a PENDING DAO does not hold up its owner's account deletion
    const gone = await pendingDao();
    expect((await api.delete(`/users/${gone.owner.id}`, { token: gone.owner.token })).status).toBe(204);
    expect((await approve(admin, gone.daoId)).status).toBe(200);
    const other = await pendingDao();
    expect((await api.delete(`/users/${other.owner.id}`, { token: other.owner.token })).status).toBe(204);
    expect((await reject(admin, other.daoId)).status).toBe(200);
    expect((await mailsTo(gone.owner.email)).length).toBe(0);
    expect((await mailsTo(other.owner.email)).length).toBe(0);
  });
});

describe.runIf(TEST_DB === 'postgres')('races on PostgreSQL', () => {
  it('admins approving and rejecting one DAO at once: exactly one decision, one audit, one mail', async () => {
    const admins: TestUser[] = [admin];
    // the same admin signed in again is enough: the decision is per DAO, not per admin
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/auth/login', { email: ADMIN, password: admin.password });
      admins.push({ ...admin, token: res.body.token });
    }
    for (let round = 0; round < 5; round++) {
      const { owner, daoId }: { owner: Member; daoId: string } = await pendingDao();
      const calls = Array.from({ length: 12 }, (_, i) =>
        i % 2 ? approve(admins[i % 4]!, daoId) : reject(admins[i % 4]!, daoId, `no ${i}`),
      );
      const results = await Promise.all(calls);
      const won = results.filter((r) => r.status === 200);
      expect(won.length).toBe(1);
      expect(results.filter((r) => r.status === 409).length).toBe(11);
      const final = (await api.get(`/daos/${daoId}`)).body;
      expect(final.status).toBe(won[0]!.body.status);
      expect((await audits(daoId)).length).toBe(1);
      expect((await mailsTo(owner.email)).length).toBe(1);
      expect((await history(daoId)).length).toBe(1);
    }
  });
});
