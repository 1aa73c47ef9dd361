import { daoRoles } from '@plenum/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser, newWallet, type TestUser } from './support/factories';
import { addMember, createDao } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Members in bulk and finding DAOs (docs/governance.md, "Members in bulk", "Finding DAOs"), over real
 * HTTP on both databases.
 */

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

type Row = Record<string, unknown>;
async function query(q: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await t.app.dbHandle.db.execute(q)) as unknown;
  return (Array.isArray(res) ? res : (res as { rows: Row[] }).rows) as Row[];
}

const bulk = (who: TestUser, daoId: string, addresses: unknown, extra: Record<string, unknown> = {}) =>
  api.post(`/daos/${daoId}/members/bulk`, { addresses, ...extra }, { token: who.token });
const addresses = (n: number) => Array.from({ length: n }, () => newWallet().address);

describe('POST /daos/{daoId}/members/bulk', () => {
  it('adds the new, reports members already in, bad strings and repeats, each on its own', async () => {
    const owner = await memberUser(api);
    const { daoId } = await createDao(api, owner);
    const [a, b, c, existing] = addresses(4) as [string, string, string, string];
    await addMember(api, owner, daoId, existing);
    const res = await bulk(owner, daoId, [
      a.toLowerCase(),
      ` ${b} `,
      'not an address',
      existing.toLowerCase(),
      b.toUpperCase().replace('0X', '0x'),
      `0x${a.slice(2, 41)}`,
      owner.wallet.address,
      c,
      // a mixed-case address with a wrong checksum is a typo, not an address
      `${c.slice(0, 41)}${c[41] === c[41]!.toLowerCase() ? c[41]!.toUpperCase() : c[41]!.toLowerCase()}`,
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      added: [a, b, c],
      alreadyMembers: [existing, owner.wallet.address],
      invalid: [
        { address: 'not an address', reason: 'INVALID_ADDRESS' },
        { address: b.toUpperCase().replace('0X', '0x'), reason: 'DUPLICATE' },
        { address: `0x${a.slice(2, 41)}`, reason: 'INVALID_ADDRESS' },
        expect.objectContaining({ reason: expect.stringMatching(/INVALID_ADDRESS|DUPLICATE/) }),
      ],
      memberCount: 5,
    });
    const members = (await api.get(`/daos/${daoId}`)).body.members;
    expect(members.sort()).toEqual([a, b, c, existing, owner.wallet.address].sort());
  });

  it('the owner or a DAO admin; DAO must be ACTIVE; 1 to 1,000 strings; nothing written on refusal', async () => {
    const owner = await memberUser(api);
    const { daoId } = await createDao(api, owner);
    const other = await memberUser(api);
    const list = addresses(3);
    const refused = await bulk(other, daoId, list);
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('NOT_DAO_ADMIN');
    await t.app.svc.db
      .insert(daoRoles)
      .values({ daoId, address: other.wallet.address, role: 'moderator', grantedBy: owner.wallet.address });
    expect((await bulk(other, daoId, list)).status).toBe(403);
    await t.app.svc.db.update(daoRoles).set({ role: 'admin' }).where(sql`${daoRoles.daoId} = ${daoId}`);
    const byAdmin = await bulk(other, daoId, list);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(byAdmin.body.added).toEqual(list);

    expect((await api.post(`/daos/${daoId}/members/bulk`, { addresses: list })).status).toBe(401);
    for (const body of [
      {},
      { addresses: [] },
      { addresses: 'x' },
      { addresses: [42] },
      { addresses: ['x'.repeat(201)] },
      { addresses: Array(1001).fill(list[0]) },
      { addresses: list, memberCount: 3 },
    ]) {
      const res = await api.post(`/daos/${daoId}/members/bulk`, body, { token: owner.token });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const full = await bulk(owner, daoId, addresses(1000));
    expect(full.status).toBe(200);
    expect(full.body.added.length).toBe(1000);
    expect(full.body.memberCount).toBe(1004);

    expect(
      (await api.post(`/daos/${daoId}/status`, { status: 'INACTIVE' }, { token: owner.token })).status,
    ).toBe(200);
    const inactive = await bulk(owner, daoId, addresses(2));
    expect(inactive.status).toBe(409);
    expect(inactive.body.reason).toBe('DAO_NOT_ACTIVE');
    expect((await bulk(owner, '00000000-0000-4000-8000-000000000000', list)).status).toBe(404);
    expect((await api.get(`/daos/${daoId}`)).body.memberCount).toBe(1004);
  });

  it.runIf(TEST_DB === 'postgres')(
    'overlapping lists at once on PostgreSQL: every address added exactly once, counts exact',
    async () => {
      const owner = await memberUser(api);
      const { daoId } = await createDao(api, owner);
      const pool = addresses(300);
      // 8 calls, each a window of 150 of the pool: every address is in 4 of them
      const lists = Array.from({ length: 8 }, (_, i) =>
        Array.from({ length: 150 }, (_, j) => pool[(i * 37 + j * 2) % 300]!),
      );
      const results = await Promise.all(lists.map((l) => bulk(owner, daoId, l)));
      for (const r of results) expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      const added = results.flatMap((r) => r.body.added as string[]);
      const covered = new Set(lists.flat());
      expect(added.length).toBe(covered.size);
      expect(new Set(added).size).toBe(covered.size);
      results.forEach((r, i) => {
        expect([...r.body.added, ...r.body.alreadyMembers].sort()).toEqual([...new Set(lists[i])].sort());
        expect(r.body.invalid).toEqual([]);
      });
      const [row] = await query(sql`select count(*)::int as n from dao_members where dao_id = ${daoId}`);
      expect(row?.n).toBe(covered.size + 1);
      expect((await api.get(`/daos/${daoId}`)).body.memberCount).toBe(covered.size + 1);
    },
  );
});

describe('GET /daos?q=', () => {
  it('finds DAOs by a substring of the name or description, ignoring case; LIKE signs match themselves', async () => {
    const owner = await memberUser(api);
    const tag = Math.random().toString(36).slice(2, 8);
    const garden = await createDao(api, owner, undefined, { name: `Garden ${tag}`, description: 'Tomatoes' });
    const pool = await createDao(api, owner, undefined, {
      name: `Pool ${tag}`,
      description: 'We keep the GARDEN pond clean',
    });
    const percent = await createDao(api, owner, undefined, { name: `100% ${tag}`, description: 'a_b' });
    const ids = async (q: string, extra = '') => {
      const res = await api.get(`/daos?q=${encodeURIComponent(q)}&limit=100${extra}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.items as { daoId: string }[]).map((d) => d.daoId);
    };
    expect(await ids(`garden ${tag}`)).toEqual([garden.daoId]);
    expect((await ids(tag)).sort()).toEqual([garden.daoId, pool.daoId, percent.daoId].sort());
    expect(await ids(`${tag} we keep the garden`)).toEqual([pool.daoId]);
    expect((await ids('tomatoes')).includes(garden.daoId)).toBe(true);
    // % and _ are not wildcards: "0%" is only in one name, "a_b" only in one description
    expect(await ids(`0% ${tag}`)).toEqual([percent.daoId]);
    expect((await ids('%')).every((id) => id === percent.daoId)).toBe(true);
    expect(await ids(`${tag}_`)).toEqual([]);
    expect((await ids('a_b')).includes(percent.daoId)).toBe(true);
    expect((await ids('axb')).includes(percent.daoId)).toBe(false);
    // with the other filters and the total
    const res = await api.get(`/daos?q=${tag}&limit=1&status=ACTIVE`);
    expect(res.body.pagination).toMatchObject({ total: 3, limit: 1 });
    expect(await ids(tag, '&status=INACTIVE')).toEqual([]);
    expect((await api.get(`/daos?q=${'x'.repeat(101)}`)).status).toBe(400);
  });
});
