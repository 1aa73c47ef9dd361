import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, memberUser, newWallet, register } from './support/factories';
import { addMember, createDao } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

const rules = { threshold: 50, minVotingPeriod: 1, tokenWeighted: false };

describe('POST /daos', () => {
  it('creates an ACTIVE DAO whose owner is its first member, with a dao_created event', async () => {
    const owner = await memberUser(api);
    const res = await api.post(
      '/daos',
      {
        name: 'Garden',
        description: 'Our garden',
        ownerAddress: owner.wallet.address.toLowerCase(),
        votingRules: rules,
      },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Garden',
      description: 'Our garden',
      ownerAddress: owner.wallet.address,
      status: 'ACTIVE',
      votingRules: { threshold: 50, minVotingPeriod: 1, tokenWeighted: false, quorum: 0 },
      members: [owner.wallet.address],
      proposals: [],
      memberCount: 1,
      proposalCount: 0,
    });
    expect(res.body.daoId).toMatch(/^[0-9a-f-]{36}$/);
    const got = await api.get(`/daos/${res.body.daoId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it.each([
    ['no body', undefined, 'name'],
    ['missing name', { votingRules: rules }, 'name'],
    ['empty name', { name: '  ', votingRules: rules }, 'name'],
    ['name too long', { name: 'x'.repeat(101), votingRules: rules }, 'name'],
    ['description too long', { name: 'a', description: 'x'.repeat(2001), votingRules: rules }, 'description'],
    ['missing votingRules', { name: 'a' }, 'votingRules'],
    ['threshold 0', { name: 'a', votingRules: { ...rules, threshold: 0 } }, 'votingRules.threshold'],
    ['threshold 101', { name: 'a', votingRules: { ...rules, threshold: 101 } }, 'votingRules.threshold'],
    [
      'threshold as string',
      { name: 'a', votingRules: { ...rules, threshold: '50' } },
      'votingRules.threshold',
    ],
    [
      'negative minVotingPeriod',
      { name: 'a', votingRules: { ...rules, minVotingPeriod: -1 } },
      'votingRules.minVotingPeriod',
    ],
    [
      'tokenWeighted not boolean',
      { name: 'a', votingRules: { ...rules, tokenWeighted: 'yes' } },
      'votingRules.tokenWeighted',
    ],
    ['quorum 120', { name: 'a', votingRules: { ...rules, quorum: 120 } }, 'votingRules.quorum'],
    ['unknown field', { name: 'a', votingRules: rules, status: 'ACTIVE' }, ''],
    ['bad ownerAddress', { name: 'a', votingRules: rules, ownerAddress: '0x123' }, 'ownerAddress'],
  ])('400 for %s', async (_name, body, field) => {
    const owner = await memberUser(api);
    const payload = body === undefined ? undefined : { ownerAddress: owner.wallet.address, ...body };
    const res = await api.post('/daos', payload, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
  });

  it('needs a session (401), a verified account (403) and an address of the caller (403)', async () => {
    const owner = await memberUser(api);
    const body = { name: 'a', ownerAddress: owner.wallet.address, votingRules: rules };
    expect((await api.post('/daos', body)).status).toBe(401);
    const other = await activeUser(api);
    const res = await api.post('/daos', body, { token: other.token });
    expect(res.status).toBe(403);
    const fresh = await register(api);
    const signIn = await api.post('/auth/login', { email: fresh.body.email, password: 'Correct-Horse-9' });
    const unverified = await api.post('/daos', body, { token: signIn.body.token });
    expect(unverified.status).toBe(403);
    expect(unverified.body.reason).toBe('EMAIL_NOT_VERIFIED');
  });
});

describe('DAO reads', () => {
  it('404 for an unknown DAO, 400 for a malformed id', async () => {
    expect((await api.get('/daos/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.get('/daos/not-a-uuid')).status).toBe(400);
  });

  it('lists DAOs and the DAOs of an owner, paged and newest first', async () => {
    const owner = await memberUser(api);
    const a = await createDao(api, owner, rules, { name: 'First' });
    const b = await createDao(api, owner, rules, { name: 'Second' });
    const mine = await api.get(`/daos/owner/${owner.wallet.address.toLowerCase()}?limit=1`);
    expect(mine.status).toBe(200);
    expect(mine.body.pagination).toEqual({ total: 2, page: 1, limit: 1, totalPages: 2 });
    expect(mine.body.items[0].daoId).toBe(b.daoId);
    const page2 = await api.get(`/daos/owner/${owner.wallet.address}?limit=1&page=2`);
    expect(page2.body.items[0].daoId).toBe(a.daoId);
    const all = await api.get('/daos?limit=200');
    expect(all.status).toBe(200);
    const ids = all.body.items.map((d: { daoId: string }) => d.daoId);
    expect(ids.indexOf(b.daoId)).toBeLessThan(ids.indexOf(a.daoId));
    expect((await api.get('/daos/owner/0xnope')).status).toBe(400);
    expect((await api.get('/daos?limit=500')).status).toBe(400);
  });
});

describe('DAOs of a member', () => {
  it('GET /daos?member= lists only the DAOs that address belongs to, in any casing; a bad address is 400', async () => {
    const owner = await memberUser(api);
    const a = await createDao(api, owner);
    const b = await createDao(api, owner);
    await createDao(api, owner);
    const wallet = newWallet();
    await addMember(api, owner, a.daoId, wallet.address);
    await addMember(api, owner, b.daoId, wallet.address);
    const res = await api.get(`/daos?member=${wallet.address.toLowerCase()}&limit=10`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((d: { daoId: string }) => d.daoId)).toEqual([b.daoId, a.daoId]);
    expect(res.body.pagination.total).toBe(2);
    expect((await api.get(`/daos?member=${newWallet().address}`)).body.items).toEqual([]);
    expect((await api.get('/daos?member=0x123')).status).toBe(400);
  });
});

describe('members', () => {
  it('owner adds (201), duplicates are 409, others are 403, lists are paged', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const w = newWallet();
    const res = await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: w.address.toLowerCase() },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      daoId: dao.daoId,
      memberAddress: w.address,
      tokenBalance: '0',
      memberCount: 2,
    });
    const again = await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: w.address },
      { token: owner.token },
    );
    expect(again.status).toBe(409);
    const stranger = await memberUser(api);
    const forbidden = await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: newWallet().address },
      { token: stranger.token },
    );
    expect(forbidden.status).toBe(403);
    expect(
      (await api.post(`/daos/${dao.daoId}/members`, { memberAddress: 'nope' }, { token: owner.token }))
        .status,
    ).toBe(400);
    expect((await api.post(`/daos/${dao.daoId}/members`, {}, { token: owner.token })).status).toBe(400);
    expect(
      (
        await api.post(
          '/daos/00000000-0000-4000-8000-000000000000/members',
          { memberAddress: w.address },
          { token: owner.token },
        )
      ).status,
    ).toBe(404);
    const list = await api.get(`/daos/${dao.daoId}/members`);
    expect(list.body.items[0]).toMatchObject({ memberAddress: w.address, tokenBalance: '0' });
    expect(list.body.pagination.total).toBe(2);
  });

  it('removes members (204) but never the owner (400); balances only in token-weighted DAOs', async () => {
    const owner = await memberUser(api);
    const equal = await createDao(api, owner, rules);
    const w = newWallet();
    await addMember(api, owner, equal.daoId, w.address);
    const put = await api.put(
      `/daos/${equal.daoId}/members/${w.address}`,
      { tokenBalance: '5' },
      { token: owner.token },
    );
    expect(put.status).toBe(400);
    expect(
      (await api.delete(`/daos/${equal.daoId}/members/${owner.wallet.address}`, { token: owner.token }))
        .status,
    ).toBe(400);
    const del = await api.delete(`/daos/${equal.daoId}/members/${w.address}`, { token: owner.token });
    expect(del.status).toBe(204);
    expect(
      (await api.delete(`/daos/${equal.daoId}/members/${w.address}`, { token: owner.token })).status,
    ).toBe(404);

    const weighted = await createDao(api, owner, { ...rules, tokenWeighted: true });
    await addMember(api, owner, weighted.daoId, w.address);
    const big = (2n ** 255n).toString();
    const ok = await api.put(
      `/daos/${weighted.daoId}/members/${w.address}`,
      { tokenBalance: big },
      { token: owner.token },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ memberAddress: w.address, tokenBalance: big, memberCount: 2 });
    for (const bad of [-1, '1.5', '1e3', '-3', (2n ** 256n).toString(), 12]) {
      const r = await api.put(
        `/daos/${weighted.daoId}/members/${w.address}`,
        { tokenBalance: bad },
        { token: owner.token },
      );
      expect(r.status, String(bad)).toBe(400);
      // a field issue naming tokenBalance, never an internal message
      expect(r.body.issues?.[0]?.path, String(bad)).toBe('tokenBalance');
      expect(r.body.message).not.toMatch(/BigInt/);
    }
    expect(
      (
        await api.put(
          `/daos/${weighted.daoId}/members/${newWallet().address}`,
          { tokenBalance: '1' },
          { token: owner.token },
        )
      ).status,
    ).toBe(404);
  });
});

describe('DAO status and approval', () => {
  it('owner toggles ACTIVE ↔ INACTIVE; an INACTIVE DAO takes no members (409)', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const other = await memberUser(api);
    expect(
      (await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: other.token })).status,
    ).toBe(403);
    const off = await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('INACTIVE');
    const add = await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: newWallet().address },
      { token: owner.token },
    );
    expect(add.status).toBe(409);
    expect(
      (await api.post(`/daos/${dao.daoId}/status`, { status: 'PENDING' }, { token: owner.token })).status,
    ).toBe(400);
    const on = await api.post(`/daos/${dao.daoId}/status`, { status: 'ACTIVE' }, { token: owner.token });
    expect(on.body.status).toBe('ACTIVE');
  });

  it('blocks deleting a user who owns an ACTIVE DAO', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules, { name: 'Kept' });
    const del = await api.delete(`/users/${owner.id}`, { token: owner.token });
    expect(del.status).toBe(409);
    expect(del.body.message).toContain('owns an ACTIVE DAO: Kept');
    await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect((await api.delete(`/users/${owner.id}`, { token: owner.token })).status).toBe(204);
  });
});

describe('DAO_APPROVAL_REQUIRED', () => {
  let t2: TestApp;
  let api2: ApiClient;
  beforeAll(async () => {
    t2 = await startTestApp({ env: { DAO_APPROVAL_REQUIRED: 'true', ADMIN_EMAILS: 'boss@example.org' } });
    api2 = apiClient(t2.url);
  });
  afterAll(() => t2.close());

  it('creates PENDING DAOs that only an admin approves', async () => {
    const owner = await memberUser(api2);
    const dao = await createDao(api2, owner, rules);
    expect(dao.status).toBe('PENDING');
    expect(
      (
        await api2.post(
          `/daos/${dao.daoId}/members`,
          { memberAddress: newWallet().address },
          { token: owner.token },
        )
      ).status,
    ).toBe(409);
    expect(
      (await api2.post(`/daos/${dao.daoId}/status`, { status: 'ACTIVE' }, { token: owner.token })).status,
    ).toBe(409);
    expect(
      (await api2.post(`/admin/daos/${dao.daoId}/approve`, undefined, { token: owner.token })).status,
    ).toBe(403);
    const queue = await api2.get('/daos?status=PENDING');
    expect(queue.body.items.map((d: { daoId: string }) => d.daoId)).toContain(dao.daoId);
    const admin = await activeUser(api2, { email: 'boss@example.org' });
    const ok = await api2.post(`/admin/daos/${dao.daoId}/approve`, undefined, { token: admin.token });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('ACTIVE');
    expect(
      (await api2.post(`/admin/daos/${dao.daoId}/approve`, undefined, { token: admin.token })).status,
    ).toBe(409);
    expect(
      (
        await api2.post('/admin/daos/00000000-0000-4000-8000-000000000000/approve', undefined, {
          token: admin.token,
        })
      ).status,
    ).toBe(404);

    // both admin actions on the DAO are audited, once each (the refused second approval is not)
    const off = await api2.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: admin.token });
    expect(off.status).toBe(200);
    const audit = await api2.get(`/admin/audit-log?targetId=${dao.daoId}`, { token: admin.token });
    expect(audit.status).toBe(200);
    expect(
      (audit.body.items as { action: string; actorId: string; targetType: string; details: unknown }[]).map(
        (e) => [e.action, e.actorId, e.targetType, e.details],
      ),
    ).toEqual([
      ['dao.set_status', admin.id, 'dao', { from: 'ACTIVE', to: 'INACTIVE' }],
      ['dao.approve', admin.id, 'dao', null],
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents every governance path', async () => {
    const doc = (await api.get('/api/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    const expected: [string, string][] = [
      ['post', '/daos'],
      ['get', '/daos'],
      ['get', '/daos/{daoId}'],
      ['get', '/daos/owner/{ownerAddress}'],
      ['post', '/daos/{daoId}/status'],
      ['post', '/daos/{daoId}/members'],
      ['get', '/daos/{daoId}/members'],
      ['delete', '/daos/{daoId}/members/{memberAddress}'],
      ['put', '/daos/{daoId}/members/{memberAddress}'],
      ['post', '/admin/daos/{daoId}/approve'],
      ['post', '/proposals'],
      ['get', '/proposals/{proposalId}'],
      ['get', '/proposals/dao/{daoId}'],
      ['get', '/proposals/dao/{daoId}/active'],
      ['post', '/votes'],
      ['get', '/votes/{voteId}'],
      ['get', '/votes/proposal/{proposalId}'],
      ['get', '/votes/proposal/{proposalId}/voter/{voterAddress}'],
      ['get', '/votes/proposal/{proposalId}/results'],
      ['get', '/eip712/vote'],
    ];
    for (const [method, path] of expected)
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});
