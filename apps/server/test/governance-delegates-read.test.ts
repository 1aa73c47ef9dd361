import { daoDelegateStatements, daoDelegations, daoMembers, daos } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser, newWallet } from './support/factories';
import { createDao, createProposal, signedVote, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { cancel } from './support/proposal-lifecycle';

/**
 * The read side of delegation (docs/governance.md, "Reading delegations", "Delegate statements"): the
 * ranked delegate list with weights as they stand now, participation, one address's delegation both ways,
 * and statements written by the address's owner. Delegations are written straight into dao_delegations
 * here: the reads do not depend on how they were made.
 */
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

interface Delegate {
  address: string;
  delegatorCount: number;
  delegatedWeight: string;
  ownWeight: string;
  statement: string | null;
  proposalsVoted: number;
  participationRate: number | null;
}

const lower = (a: string) => a.toLowerCase();
const byAddress = (a: string, b: string) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0);
const nowS = () => Math.floor(Date.now() / 1000);

async function delegate(daoId: string, delegator: string, to: string, createdAt = new Date()) {
  await t.app.svc.db
    .insert(daoDelegations)
    .values({ daoId, delegatorAddress: delegator, delegateAddress: to, createdAt });
}
async function delegates(daoId: string, query = '') {
  const res = await api.get(`/daos/${daoId}/delegates${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    items: Delegate[];
    pagination: { total: number; page: number; limit: number; totalPages: number };
  };
}
const putStatement = (daoId: string, address: string, body: unknown, token?: string) =>
  api.put(`/daos/${daoId}/delegates/${address}/statement`, body, token ? { token } : {});

/** a fresh DAO of its owner and `n` bare wallet members */
async function daoOf(n: number, rules: Record<string, unknown> = {}) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: false,
    ...rules,
  });
  const wallets = await walletMembers(api, owner, dao.daoId, n);
  return { owner, dao, wallets, addresses: wallets.map((w) => w.address) };
}
const row = (address: string, r: Partial<Delegate>): Delegate => ({
  address,
  delegatorCount: 0,
  delegatedWeight: '0',
  ownWeight: '0',
  statement: null,
  proposalsVoted: 0,
  participationRate: null,
  ...r,
});

describe('GET /daos/{daoId}/delegates', () => {
  it('equal DAO: 1 per delegator who is a member, a non-member delegator counts 0; by weight, then address', async () => {
    const { owner, dao, addresses } = await daoOf(6);
    const [a, b, c, d, x, z] = addresses as [string, string, string, string, string, string];
    const y = newWallet().address; // a delegate who is no member
    const w = newWallet().address;
    const s = newWallet().address; // a statement, no delegator
    await delegate(dao.daoId, a, x);
    await delegate(dao.daoId, b, x);
    await delegate(dao.daoId, c, y);
    await delegate(dao.daoId, newWallet().address, y);
    await delegate(dao.daoId, d, z);
    await delegate(dao.daoId, newWallet().address, w);
    // x delegates too: delegation does not chain, x is listed with its own delegators
    await delegate(dao.daoId, x, z);
    await t.app.svc.db
      .insert(daoDelegateStatements)
      .values({ daoId: dao.daoId, address: s, statement: 'hi' });
    const got = await delegates(dao.daoId);
    // x 2 and z 2 tie → by address; y 1; w 0 and s 0 tie → by address
    const expected: Record<string, Delegate> = {
      [x]: row(x, { delegatorCount: 2, delegatedWeight: '2', ownWeight: '1' }),
      [z]: row(z, { delegatorCount: 2, delegatedWeight: '2', ownWeight: '1' }),
      [y]: row(y, { delegatorCount: 2, delegatedWeight: '1', ownWeight: '0' }),
      [w]: row(w, { delegatorCount: 1, delegatedWeight: '0' }),
      [s]: row(s, { statement: 'hi' }),
    };
    const order = [...[x, z].sort(byAddress), y, ...[w, s].sort(byAddress)];
    expect(got.items).toEqual(order.map((k) => expected[k]));
    expect(got.pagination).toEqual({ total: 5, page: 1, limit: 50, totalPages: 1 });
    // weights are read now: a delegator removed from the DAO stops counting at once
    const removed = await api.delete(`/daos/${dao.daoId}/members/${c}`, { token: owner.token });
    expect(removed.status).toBe(204);
    const after = await delegates(dao.daoId);
    expect(after.items.find((i) => i.address === y)).toMatchObject({
      delegatorCount: 2,
      delegatedWeight: '0',
    });
    // a DAO without delegations or statements lists nobody
    const empty = await daoOf(0);
    expect(await delegates(empty.dao.daoId)).toEqual({
      items: [],
      pagination: { total: 0, page: 1, limit: 50, totalPages: 0 },
    });
  });

  it('token-weighted DAO: current balances, summed exactly and sorted as numbers; non-members 0', async () => {
    const { owner, dao, addresses } = await daoOf(5, { tokenWeighted: true });
    const [a, b, c, d, e] = addresses as [string, string, string, string, string];
    const balance = async (address: string, tokenBalance: string) => {
      const res = await api.put(
        `/daos/${dao.daoId}/members/${address}`,
        { tokenBalance },
        { token: owner.token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await balance(a, '900');
    await balance(b, '1000');
    await balance(c, (10n ** 30n).toString());
    await balance(d, '7');
    await balance(e, '5');
    const [p, q, r] = [newWallet().address, newWallet().address, newWallet().address];
    await delegate(dao.daoId, a, p); // 900
    await delegate(dao.daoId, b, q); // 1000: as text "1000" < "900"; as a number it comes first
    await delegate(dao.daoId, c, r);
    await delegate(dao.daoId, d, r);
    await delegate(dao.daoId, newWallet().address, r); // no member: 0
    await delegate(dao.daoId, e, d); // d, a delegate, is a member with its own balance
    const got = await delegates(dao.daoId);
    expect(got.items.map((i) => [i.address, i.delegatorCount, i.delegatedWeight, i.ownWeight])).toEqual([
      [r, 3, (10n ** 30n + 7n).toString(), '0'],
      [q, 1, '1000', '0'],
      [p, 1, '900', '0'],
      [d, 1, '5', '7'],
    ]);
    // the page is cut from the sorted sums: its first rows are the heaviest as numbers
    expect((await delegates(dao.daoId, '?limit=2')).items.map((i) => i.address)).toEqual([r, q]);
    // balances are read now: a change shows at once
    await balance(a, '2000');
    expect((await delegates(dao.daoId)).items.map((i) => i.address)).toEqual([r, p, q, d]);
  });

  it('participation: counted votes on started proposals; pending and cancelled ones do not count', async () => {
    const { owner, dao, wallets } = await daoOf(3, { allowVoteChange: true });
    const [x, y, other] = wallets as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
    await delegate(dao.daoId, other.address, x.address);
    await delegate(dao.daoId, newWallet().address, y.address);
    const find = async (address: string) =>
      (await delegates(dao.daoId)).items.find((i) => i.address === address);
    // no proposal has started: no rate
    expect(await find(x.address)).toMatchObject({ proposalsVoted: 0, participationRate: null });
    const vote = async (w: PrivateKeyAccount, proposalId: string, choice: string, ts = nowS()) => {
      const res = await api.post('/votes', await signedVote(w, { daoId: dao.daoId, proposalId, choice }, ts));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const p1 = await createProposal(api, owner, dao.daoId);
    const p2 = await createProposal(api, owner, dao.daoId);
    const pending = await createProposal(api, owner, dao.daoId, {
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(pending.status).toBe('PENDING');
    const p4 = await createProposal(api, owner, dao.daoId);
    await vote(x, p1.proposalId, 'For', nowS() - 5);
    // a changed vote is still one proposal voted on (the replaced vote is not counted)
    await vote(x, p1.proposalId, 'Against', nowS());
    await vote(x, p4.proposalId, 'For');
    await vote(y, p4.proposalId, 'For');
    expect((await cancel(api, p4.proposalId, {}, owner.token)).status).toBe(200);
    // started and not cancelled: p1 and p2
    expect(await find(x.address)).toMatchObject({ proposalsVoted: 1, participationRate: 0.5 });
    expect(await find(y.address)).toMatchObject({ proposalsVoted: 0, participationRate: 0 });
    await vote(x, p2.proposalId, 'For');
    expect(await find(x.address)).toMatchObject({ proposalsVoted: 2, participationRate: 1 });
  });

  it('pages: page and limit, total over every listed address, a page past the end is empty', async () => {
    const { dao } = await daoOf(0);
    // 15 members straight into the table; delegate i gets i + 1 of them, the sixth only a statement
    const members = Array.from({ length: 15 }, () => newWallet().address);
    await t.app.svc.db.insert(daoMembers).values(members.map((address) => ({ daoId: dao.daoId, address })));
    const targets = Array.from({ length: 5 }, () => newWallet().address);
    let k = 0;
    for (const [i, to] of targets.entries())
      for (let n = 0; n <= i; n++) await delegate(dao.daoId, members[k++]!, to);
    const s = newWallet().address;
    await t.app.svc.db.insert(daoDelegateStatements).values({ daoId: dao.daoId, address: s, statement: 'x' });
    const order = [...targets].reverse().concat(s);
    const all = await delegates(dao.daoId, '?limit=200');
    expect(all.items.map((i) => [i.address, i.delegatedWeight])).toEqual(
      order.map((a, i) => [a, String(Math.max(0, 5 - i))]),
    );
    const pages = await Promise.all([1, 2, 3].map((page) => delegates(dao.daoId, `?limit=2&page=${page}`)));
    expect(pages.flatMap((p) => p.items.map((i) => i.address))).toEqual(order);
    expect(pages[1]!.pagination).toEqual({ total: 6, page: 2, limit: 2, totalPages: 3 });
    const past = await delegates(dao.daoId, '?limit=2&page=9');
    expect(past).toEqual({ items: [], pagination: { total: 6, page: 9, limit: 2, totalPages: 3 } });
    for (const q of ['?limit=201', '?limit=0', '?page=0', '?page=x', '?sort=weight'])
      expect((await api.get(`/daos/${dao.daoId}/delegates${q}`)).status, q).toBe(400);
  });
});

describe('GET /daos/{daoId}/delegation/{address}', () => {
  it("both ways: the address's delegate, and its delegators in address order with their weight, paged", async () => {
    const { dao, addresses } = await daoOf(4, { tokenWeighted: false });
    const [a, b, c, x] = addresses as [string, string, string, string];
    const outsider = newWallet().address;
    const z = newWallet().address;
    const at = new Date('2030-01-02T03:04:05.000Z');
    await delegate(dao.daoId, a, x, at);
    await delegate(dao.daoId, b, x, at);
    await delegate(dao.daoId, c, x, at);
    await delegate(dao.daoId, outsider, x, at);
    await delegate(dao.daoId, x, z, at);
    const of = async (address: string, query = '') => {
      const res = await api.get(`/daos/${dao.daoId}/delegation/${address}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const weightOf = (addr: string) => (addr === outsider ? '0' : '1');
    const sorted = [a, b, c, outsider].sort(byAddress);
    const items = sorted.map((d) => ({
      delegatorAddress: d,
      weight: weightOf(d),
      createdAt: at.toISOString(),
    }));
    // any casing of the address reads the same
    expect(await of(lower(x))).toEqual({
      delegate: { delegateAddress: z, createdAt: at.toISOString() },
      chainDelegate: null,
      delegators: { items, total: 4 },
    });
    expect(await of(a)).toEqual({
      delegate: { delegateAddress: x, createdAt: at.toISOString() },
      chainDelegate: null,
      delegators: { items: [], total: 0 },
    });
    expect(await of(newWallet().address)).toEqual({
      delegate: null,
      chainDelegate: null,
      delegators: { items: [], total: 0 },
    });
    expect((await of(x, '?limit=1&page=2')).delegators).toEqual({ items: [items[1]], total: 4 });
    expect((await of(x, '?limit=3&page=2')).delegators).toEqual({ items: [items[3]], total: 4 });
  });

  it('token-weighted: each delegator weighs its balance now', async () => {
    const { owner, dao, addresses } = await daoOf(2, { tokenWeighted: true });
    const [a, b] = addresses as [string, string];
    const res = await api.put(
      `/daos/${dao.daoId}/members/${a}`,
      { tokenBalance: '12345' },
      { token: owner.token },
    );
    expect(res.status).toBe(200);
    const x = newWallet().address;
    await delegate(dao.daoId, a, x);
    await delegate(dao.daoId, b, x);
    const got = await api.get(`/daos/${dao.daoId}/delegation/${x}`);
    expect(
      (got.body.delegators.items as { delegatorAddress: string; weight: string }[]).map((i) => [
        i.delegatorAddress,
        i.weight,
      ]),
    ).toEqual([a, b].sort(byAddress).map((d) => [d, d === a ? '12345' : '0']));
  });
});

describe('PUT /daos/{daoId}/delegates/{address}/statement', () => {
  it("the address's owner writes it: trimmed, markdown kept as text, listed; again replaces; empty deletes", async () => {
    const { dao } = await daoOf(0);
    const me = await memberUser(api); // not a member: a delegate need not be one
    const text =
      '# Why me\n\n- I read every proposal\n- <script>alert(1)</script> stays text\n\n**Bold** `code`';
    const res = await putStatement(
      dao.daoId,
      lower(me.wallet.address),
      { statement: `  ${text}\n\n ` },
      me.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      daoId: dao.daoId,
      address: me.wallet.address,
      statement: text,
      updatedAt: expect.any(String),
    });
    expect((await delegates(dao.daoId)).items).toEqual([row(me.wallet.address, { statement: text })]);
    const again = await putStatement(dao.daoId, me.wallet.address, { statement: 'Shorter.' }, me.token);
    expect(again.status).toBe(200);
    expect((await delegates(dao.daoId)).items.map((i) => i.statement)).toEqual(['Shorter.']);
    // empty (after trimming) deletes it: 200 with statement ""
    const gone = await putStatement(dao.daoId, me.wallet.address, { statement: '  \n ' }, me.token);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ daoId: dao.daoId, address: me.wallet.address, statement: '' });
    const rows = await t.app.svc.db
      .select()
      .from(daoDelegateStatements)
      .where(eq(daoDelegateStatements.daoId, dao.daoId));
    expect(rows).toEqual([]);
    expect((await delegates(dao.daoId)).items).toEqual([]);
    // deleting what is not there is the same answer
    expect((await putStatement(dao.daoId, me.wallet.address, { statement: '' }, me.token)).status).toBe(200);
    // a delegate with delegators keeps its place without a statement
    await delegate(dao.daoId, newWallet().address, me.wallet.address);
    await putStatement(dao.daoId, me.wallet.address, { statement: 'Back.' }, me.token);
    await putStatement(dao.daoId, me.wallet.address, { statement: '' }, me.token);
    expect((await delegates(dao.daoId)).items).toEqual([
      row(me.wallet.address, { delegatorCount: 1, statement: null }),
    ]);
  });

  it('up to 10,000 characters after trimming; 10,001 is a 400 VALIDATION_FAILED', async () => {
    const { dao } = await daoOf(0);
    const me = await memberUser(api);
    const max = 'x'.repeat(10_000);
    const ok = await putStatement(dao.daoId, me.wallet.address, { statement: `  ${max}  ` }, me.token);
    expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
    expect(ok.body.statement).toBe(max);
    const over = await putStatement(dao.daoId, me.wallet.address, { statement: `${max}y` }, me.token);
    expect(over.status).toBe(400);
    expect(over.body.reason).toBe('VALIDATION_FAILED');
    expect(over.body.issues[0]).toMatchObject({ path: 'statement', code: 'too_big' });
    const stored = await t.app.svc.db
      .select()
      .from(daoDelegateStatements)
      .where(eq(daoDelegateStatements.daoId, dao.daoId));
    expect(stored.map((r) => r.statement)).toEqual([max]);
  });

  it("only by the address's owner: someone else 403 NOT_YOUR_ADDRESS, no session 401; bad input 400", async () => {
    const { owner, dao } = await daoOf(0);
    const me = await memberUser(api);
    const body = { statement: 'mine' };
    const other = await putStatement(dao.daoId, me.wallet.address, body, owner.token);
    expect(other.status).toBe(403);
    expect(other.body.reason).toBe('NOT_YOUR_ADDRESS');
    // a bare address nobody holds
    const bare = await putStatement(dao.daoId, newWallet().address, body, me.token);
    expect(bare.status).toBe(403);
    expect(bare.body.reason).toBe('NOT_YOUR_ADDRESS');
    const anonymous = await putStatement(dao.daoId, me.wallet.address, body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.reason).toBe('NOT_SIGNED_IN');
    const checksum = '0x52908400098527886e0F7030069857D2E4169EE7';
    for (const [path, b] of [
      [`/daos/${dao.daoId}/delegates/0x1234/statement`, body],
      [`/daos/${dao.daoId}/delegates/${checksum}/statement`, body],
      [`/daos/not-a-uuid/delegates/${me.wallet.address}/statement`, body],
      [`/daos/${dao.daoId}/delegates/${me.wallet.address}/statement`, {}],
      [`/daos/${dao.daoId}/delegates/${me.wallet.address}/statement`, { statement: 5 }],
      [`/daos/${dao.daoId}/delegates/${me.wallet.address}/statement`, { statement: 'a', updatedAt: 'x' }],
      [`/daos/${dao.daoId}/delegates/${me.wallet.address}/statement`, { statement: 'a', daoId: dao.daoId }],
    ] as const) {
      const res = await api.put(path, b, { token: me.token });
      expect(res.status, `${path} ${JSON.stringify(b)}`).toBe(400);
      expect(res.body.reason, `${path} ${JSON.stringify(b)}`).toBe('VALIDATION_FAILED');
    }
    expect(
      await t.app.svc.db
        .select()
        .from(daoDelegateStatements)
        .where(eq(daoDelegateStatements.daoId, dao.daoId)),
    ).toEqual([]);
  });

  it('only in an ACTIVE DAO: unknown 404, INACTIVE or PENDING 409 DAO_NOT_ACTIVE', async () => {
    const { owner, dao } = await daoOf(0);
    const body = { statement: 'mine' };
    const unknown = await putStatement(
      '00000000-0000-4000-8000-000000000000',
      owner.wallet.address,
      body,
      owner.token,
    );
    expect(unknown.status).toBe(404);
    const off = await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const inactive = await putStatement(dao.daoId, owner.wallet.address, body, owner.token);
    expect(inactive.status).toBe(409);
    expect(inactive.body.reason).toBe('DAO_NOT_ACTIVE');
    await t.app.svc.db.update(daos).set({ status: 'PENDING' }).where(eq(daos.id, dao.daoId));
    const pending = await putStatement(dao.daoId, owner.wallet.address, body, owner.token);
    expect(pending.status).toBe(409);
    expect(pending.body.reason).toBe('DAO_NOT_ACTIVE');
  });
});

describe('who may read', () => {
  it('anyone, as the member list: PENDING and INACTIVE DAOs too; unknown DAO 404; bad ids and addresses 400', async () => {
    const { owner, dao } = await daoOf(1);
    const x = newWallet().address;
    await delegate(dao.daoId, owner.wallet.address, x);
    for (const status of ['INACTIVE', 'PENDING'] as const) {
      await t.app.svc.db.update(daos).set({ status }).where(eq(daos.id, dao.daoId));
      expect((await api.get(`/daos/${dao.daoId}/members`)).status).toBe(200);
      expect((await delegates(dao.daoId)).items.map((i) => i.address)).toEqual([x]);
      const of = await api.get(`/daos/${dao.daoId}/delegation/${owner.wallet.address}`);
      expect(of.status).toBe(200);
      expect(of.body.delegate.delegateAddress).toBe(x);
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/daos/${unknown}/delegates`, `/daos/${unknown}/delegation/${x}`]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const checksum = '0x52908400098527886e0F7030069857D2E4169EE7';
    for (const path of [
      '/daos/not-a-uuid/delegates',
      `/daos/not-a-uuid/delegation/${x}`,
      `/daos/${dao.daoId}/delegation/0x1234`,
      `/daos/${dao.daoId}/delegation/${checksum}`,
      `/daos/${dao.daoId}/delegation/${x}?limit=0`,
    ]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.reason, path).toBe('VALIDATION_FAILED');
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('statements under concurrency (PostgreSQL)', () => {
  it('20 concurrent PUTs by the owner: all 200, one row, its text one of those sent', async () => {
    const { dao } = await daoOf(0);
    const me = await memberUser(api);
    const texts = Array.from({ length: 20 }, (_, i) => `Statement number ${i}\n\n*${'*'.repeat(i)}`);
    const results = await Promise.all(
      texts.map((statement) => putStatement(dao.daoId, me.wallet.address, { statement }, me.token)),
    );
    expect(results.map((r) => r.status)).toEqual(texts.map(() => 200));
    expect(results.map((r) => r.body.statement)).toEqual(texts);
    const rows = await t.app.svc.db
      .select()
      .from(daoDelegateStatements)
      .where(
        and(eq(daoDelegateStatements.daoId, dao.daoId), eq(daoDelegateStatements.address, me.wallet.address)),
      );
    expect(rows).toHaveLength(1);
    expect(texts).toContain(rows[0]!.statement);
    expect((await delegates(dao.daoId)).items.map((i) => i.statement)).toEqual([rows[0]!.statement]);
  });
});
