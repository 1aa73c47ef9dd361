import { type Anvil, delegate, deployToken, mint, startAnvil } from '@plenum/contracts';
import { ManualClock, maxEventId } from '@plenum/core';
import { daoDelegationClocks, daoDelegations, events } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { getAddress, parseUnits, verifyTypedData, zeroAddress } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { socketSubscriber, subscribed, trpcSubscriber } from './support/events';
import { memberUser, newWallet } from './support/factories';
import {
  addMember,
  createDao,
  createProposal,
  daoWithMembers,
  type Member,
  walletMembers,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Delegation inside a DAO, the write side (docs/governance.md, "Delegation"): votingRules.delegation at
 * creation and by an edit (never with an erc20-votes token: 409 DELEGATION_ON_CHAIN), PUT and DELETE of a
 * delegation with a session or an EIP-712 signature, the order of signed changes, every refusal, the
 * `delegation_changed` event stored, streamed and resumable, and concurrent changes of one delegator.
 */
let anvil: Anvil;
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2033-05-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
const units = (n: number) => parseUnits(String(n), 18);

beforeAll(async () => {
  anvil = await startAnvil();
  t = await startTestApp({ clock, env: { CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}` } });
  api = apiClient(t.url);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

const ON = { threshold: 50, delegation: true };

/** written out from docs/governance.md ("Delegating"), not imported from core: a drift in core fails */
const DELEGATION_TYPES = {
  Delegation: [
    { name: 'daoId', type: 'string' },
    { name: 'delegatorAddress', type: 'address' },
    { name: 'delegateAddress', type: 'address' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;

/** the delegator's signature of a change; a removal signs the zero address */
async function sign(
  wallet: PrivateKeyAccount,
  m: { daoId: string; delegateAddress?: string | null; timestamp?: number },
) {
  const timestamp = m.timestamp ?? nowS();
  const signature = await wallet.signTypedData({
    domain: { name: 'Plenum', version: '1' },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: {
      daoId: m.daoId,
      delegatorAddress: wallet.address,
      delegateAddress: (m.delegateAddress ?? zeroAddress) as `0x${string}`,
      timestamp: BigInt(timestamp),
    },
  });
  return { signature, timestamp };
}

const put = (daoId: string, body: Record<string, unknown>, token?: string) =>
  api.put(`/daos/${daoId}/delegation`, body, token ? { token } : {});
const del = (
  daoId: string,
  delegator: string,
  opts: { token?: string; query?: Record<string, unknown> } = {},
) => {
  const q = opts.query ? `?${new URLSearchParams(opts.query as Record<string, string>)}` : '';
  return api.delete(`/daos/${daoId}/delegation/${delegator}${q}`, opts.token ? { token: opts.token } : {});
};
async function signedPut(wallet: PrivateKeyAccount, daoId: string, delegate: string, timestamp?: number) {
  const s = await sign(wallet, { daoId, delegateAddress: delegate, timestamp });
  return put(daoId, { delegatorAddress: wallet.address, delegateAddress: delegate, ...s });
}
async function signedDel(wallet: PrivateKeyAccount, daoId: string, timestamp?: number) {
  const s = await sign(wallet, { daoId, delegateAddress: null, timestamp });
  return del(daoId, wallet.address, { query: { signature: s.signature, timestamp: String(s.timestamp) } });
}

async function stored(daoId: string) {
  return t.app.svc.db.select().from(daoDelegations).where(eq(daoDelegations.daoId, daoId));
}
async function changedEvents(daoId: string) {
  return t.app.svc.db
    .select()
    .from(events)
    .where(and(eq(events.daoId, daoId), eq(events.type, 'delegation_changed')))
    .orderBy(events.id);
}
const expectRefused = (res: { status: number; body: any }, status: number, reason: string) =>
  expect([res.status, res.body?.reason], JSON.stringify(res.body)).toEqual([status, reason]);

/** a delegation DAO with an owner and n members who have accounts */
const delegationDao = (n: number, rules: Record<string, unknown> = ON) => daoWithMembers(api, n, rules);

describe('votingRules.delegation', () => {
  it('is off by default, set at creation, copied onto proposals, and changed by an edit', async () => {
    const owner = await memberUser(api);
    const off = await createDao(api, owner, { threshold: 50 });
    expect(off.votingRules).toMatchObject({ delegation: false });
    const on = await createDao(api, owner, ON);
    expect(on.votingRules).toMatchObject({ delegation: true });
    const p = await createProposal(api, owner, on.daoId);
    expect(p.votingRules).toMatchObject({ delegation: true });

    const edit = await api.request(
      'PATCH',
      `/daos/${off.daoId}`,
      { votingRules: { delegation: true } },
      { token: owner.token },
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.votingRules.delegation).toBe(true);
    const history = (await api.get(`/daos/${off.daoId}/history`)).body;
    expect(history.items[0].changes).toEqual({ 'votingRules.delegation': { from: false, to: true } });
    // the proposal keeps the copy it was created with
    const back = await api.request(
      'PATCH',
      `/daos/${on.daoId}`,
      { votingRules: { delegation: false } },
      { token: owner.token },
    );
    expect(back.body.votingRules.delegation).toBe(false);
    expect((await api.get(`/proposals/${p.proposalId}`)).body.votingRules.delegation).toBe(true);
    // a boolean, exactly
    const bad = await api.request(
      'PATCH',
      `/daos/${off.daoId}`,
      { votingRules: { delegation: 'yes' } },
      { token: owner.token },
    );
    expectRefused(bad, 400, 'VALIDATION_FAILED');
  });

  it('an erc20-votes token delegates on the chain: 409 DELEGATION_ON_CHAIN at creation and by edits', async () => {
    const owner = await memberUser(api);
    const votes = await deployToken(anvil, { standard: 'erc20-votes', name: 'Votes', symbol: 'VTS' });
    const plain = await deployToken(anvil, { standard: 'erc20', name: 'Plain', symbol: 'PLN' });
    const token = (address: string, standard: string) => ({ chainId: anvil.chainId, address, standard });
    const create = (votingRules: Record<string, unknown>) =>
      api.post(
        '/daos',
        {
          name: 'Token DAO',
          ownerAddress: owner.wallet.address,
          votingRules: { threshold: 50, ...votingRules },
        },
        { token: owner.token },
      );
    const refused = await create({ token: token(votes, 'erc20-votes'), delegation: true });
    expectRefused(refused, 409, 'DELEGATION_ON_CHAIN');
    expect(refused.body.message).toMatch(/the token's own delegation counts/);
    // a plain ERC-20 DAO may delegate
    const plainDao = await create({ token: token(plain, 'erc20'), delegation: true });
    expect(plainDao.status, JSON.stringify(plainDao.body)).toBe(201);

    const patch = (daoId: string, votingRules: Record<string, unknown>) =>
      api.request('PATCH', `/daos/${daoId}`, { votingRules }, { token: owner.token });
    // switching the token to erc20-votes while delegation is on
    expectRefused(
      await patch(plainDao.body.daoId, { token: token(votes, 'erc20-votes') }),
      409,
      'DELEGATION_ON_CHAIN',
    );
    // turning delegation on in an erc20-votes DAO
    const votesDao = await create({ token: token(votes, 'erc20-votes') });
    expect(votesDao.status).toBe(201);
    expectRefused(await patch(votesDao.body.daoId, { delegation: true }), 409, 'DELEGATION_ON_CHAIN');
    // both at once are fine the other way round: delegation off with the switch
    const both = await patch(plainDao.body.daoId, { token: token(votes, 'erc20-votes'), delegation: false });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.votingRules).toMatchObject({ delegation: false, token: { standard: 'erc20-votes' } });
    // the delegation that counts there is the token's, read from the chain (docs/governance.md,
    // "Reading delegations"); in any other DAO chainDelegate is null
    const [, holder, named] = anvil.accounts;
    const chainOf = async (daoId: string, address: string) => {
      const res = await api.get(`/daos/${daoId}/delegation/${address}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.chainDelegate;
    };
    expect(await chainOf(votesDao.body.daoId, holder!.address)).toBeNull();
    await delegate(anvil, votes as `0x${string}`, { from: holder!, to: named!.address });
    expect(await chainOf(votesDao.body.daoId, holder!.address)).toBe(named!.address);
    expect(await chainOf(votesDao.body.daoId, named!.address)).toBeNull();
    const memberDao = await create({});
    expect(await chainOf(memberDao.body.daoId, holder!.address)).toBeNull();
    // and such a DAO takes no delegation
    const m = await memberUser(api);
    await addMember(api, owner, votesDao.body.daoId, m.wallet.address);
    expectRefused(
      await put(
        votesDao.body.daoId,
        { delegatorAddress: m.wallet.address, delegateAddress: owner.wallet.address },
        m.token,
      ),
      409,
      'DELEGATION_DISABLED',
    );
  });
});

describe('GET /eip712/delegation', () => {
  it('publishes the typed data; a signature made from it with viem verifies and is taken', async () => {
    const res = await api.get('/eip712/delegation');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      domain: { name: 'Plenum', version: '1' },
      primaryType: 'Delegation',
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
        ],
        Delegation: DELEGATION_TYPES.Delegation,
      },
    });
    const { owner, dao } = await delegationDao(0);
    const [w] = await walletMembers(api, owner, dao.daoId, 1);
    const { EIP712Domain: _, ...types } = res.body.types;
    const typedData = {
      domain: res.body.domain,
      types,
      primaryType: res.body.primaryType,
      message: {
        daoId: dao.daoId,
        delegatorAddress: w!.address,
        delegateAddress: owner.wallet.address,
        timestamp: BigInt(nowS()),
      },
    };
    const signature = await w!.signTypedData(typedData);
    expect(await verifyTypedData({ ...typedData, address: w!.address, signature })).toBe(true);
    const taken = await put(dao.daoId, {
      delegatorAddress: w!.address,
      delegateAddress: owner.wallet.address,
      signature,
      timestamp: Number(typedData.message.timestamp),
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it("names every reason per status, and a signed removal's signature and timestamp as query parameters", async () => {
    const doc = (await api.get('/api/docs-json')).body;
    const putOp = doc.paths['/daos/{daoId}/delegation'].put;
    const delOp = doc.paths['/daos/{daoId}/delegation/{address}'].delete;
    const expected: [any, string, RegExp][] = [
      [putOp, '400', /SELF_DELEGATION/],
      [putOp, '401', /INVALID_SIGNATURE.*SIGNATURE_EXPIRED.*SIGNATURE_FROM_FUTURE/],
      [putOp, '403', /NOT_YOUR_ADDRESS.*NOT_A_MEMBER/],
      [putOp, '409', /DELEGATION_DISABLED.*DAO_NOT_ACTIVE.*STALE_SIGNATURE/],
      [delOp, '404', /NO_DELEGATION/],
      [delOp, '409', /STALE_SIGNATURE/],
    ];
    for (const [op, status, reasons] of expected)
      expect(op.responses[status]?.description, status).toMatch(reasons);
    expect(putOp.summary).toBeTruthy();
    expect(delOp.description).toMatch(/zero address/);
    const query = delOp.parameters
      .filter((p: { in: string }) => p.in === 'query')
      .map((p: { name: string }) => p.name);
    expect(query.sort()).toEqual(['signature', 'timestamp']);
    expect(delOp.requestBody).toBeUndefined();
    expect(Object.keys(doc.paths['/eip712/delegation'])).toEqual(['get']);
  });
});

describe('delegating with a session', () => {
  it('sets, replaces, keeps the same delegate without a change, and removes: one event per change', async () => {
    const { dao, members } = await delegationDao(3);
    const [a, b, c] = members as [Member, Member, Member];
    // lower-case in, checksummed out and stored
    const first = await put(
      dao.daoId,
      { delegatorAddress: a.wallet.address.toLowerCase(), delegateAddress: b.wallet.address.toLowerCase() },
      a.token,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      daoId: dao.daoId,
      delegatorAddress: a.wallet.address,
      delegateAddress: b.wallet.address,
      createdAt: clock.now().toISOString(),
    });
    clock.advance(60_000);
    const same = await put(
      dao.daoId,
      { delegatorAddress: a.wallet.address, delegateAddress: b.wallet.address },
      a.token,
    );
    expect(same.status).toBe(200);
    expect(same.body).toEqual(first.body); // createdAt as it was
    expect(await changedEvents(dao.daoId)).toHaveLength(1);

    const replaced = await put(
      dao.daoId,
      { delegatorAddress: a.wallet.address, delegateAddress: c.wallet.address },
      a.token,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      delegateAddress: c.wallet.address,
      createdAt: clock.now().toISOString(),
    });
    const rows = await stored(dao.daoId);
    expect(rows.map((r) => [r.delegatorAddress, r.delegateAddress])).toEqual([
      [a.wallet.address, c.wallet.address],
    ]);

    const removed = await del(dao.daoId, a.wallet.address.toLowerCase(), { token: a.token });
    expect(removed.status, removed.text).toBe(204);
    expect(removed.text).toBe('');
    expect(await stored(dao.daoId)).toEqual([]);
    expectRefused(await del(dao.daoId, a.wallet.address, { token: a.token }), 404, 'NO_DELEGATION');

    const evs = await changedEvents(dao.daoId);
    expect(evs.map((e) => [e.proposalId, e.data])).toEqual([
      [null, { daoId: dao.daoId, delegatorAddress: a.wallet.address, from: null, to: b.wallet.address }],
      [
        null,
        {
          daoId: dao.daoId,
          delegatorAddress: a.wallet.address,
          from: b.wallet.address,
          to: c.wallet.address,
        },
      ],
      [null, { daoId: dao.daoId, delegatorAddress: a.wallet.address, from: c.wallet.address, to: null }],
    ]);
    // one delegate per delegator, many delegators per delegate; the delegate need not be a member
    const outsider = newWallet().address;
    for (const m of [a, b])
      expect(
        (await put(dao.daoId, { delegatorAddress: m.wallet.address, delegateAddress: outsider }, m.token))
          .status,
      ).toBe(200);
    expect((await stored(dao.daoId)).map((r) => r.delegateAddress)).toEqual([outsider, outsider]);
  });

  it('refuses: no session 401, not your address 403, self 400, not a member 403, delegation off and a DAO not ACTIVE 409, bad input 400, unknown DAO 404', async () => {
    const { owner, dao, members } = await delegationDao(2);
    const [a, b] = members as [Member, Member];
    const body = { delegatorAddress: a.wallet.address, delegateAddress: b.wallet.address };
    expectRefused(await put(dao.daoId, body), 401, 'NOT_SIGNED_IN');
    expectRefused(await del(dao.daoId, a.wallet.address), 401, 'NOT_SIGNED_IN');
    expectRefused(await put(dao.daoId, body, b.token), 403, 'NOT_YOUR_ADDRESS');
    expectRefused(await del(dao.daoId, a.wallet.address, { token: b.token }), 403, 'NOT_YOUR_ADDRESS');
    // to itself, in any letter case
    expectRefused(
      await put(
        dao.daoId,
        { delegatorAddress: a.wallet.address, delegateAddress: a.wallet.address.toLowerCase() },
        a.token,
      ),
      400,
      'SELF_DELEGATION',
    );
    // a user whose wallet is not a member
    const stranger = await memberUser(api);
    expectRefused(
      await put(
        dao.daoId,
        { delegatorAddress: stranger.wallet.address, delegateAddress: a.wallet.address },
        stranger.token,
      ),
      403,
      'NOT_A_MEMBER',
    );
    // bad addresses, the zero address as a delegate, a timestamp without a signature, unknown fields
    for (const bad of [
      { ...body, delegateAddress: 'nope' },
      { ...body, delegatorAddress: '0x123' },
      { ...body, delegateAddress: zeroAddress },
      { ...body, timestamp: nowS() },
      { ...body, weight: '5' },
      { delegatorAddress: a.wallet.address },
    ])
      expectRefused(await put(dao.daoId, bad, a.token), 400, 'VALIDATION_FAILED');
    expectRefused(await del(dao.daoId, 'nope', { token: a.token }), 400, 'VALIDATION_FAILED');
    expectRefused(await put('not-a-uuid', body, a.token), 400, 'VALIDATION_FAILED');
    expect((await put('7f0c8c7e-3c1d-4d6a-9f51-0b8e5b0f2a11', body, a.token)).status).toBe(404);
    expect(
      (await del('7f0c8c7e-3c1d-4d6a-9f51-0b8e5b0f2a11', a.wallet.address, { token: a.token })).status,
    ).toBe(404);

    // a DAO without delegation
    const off = await createDao(api, owner, { threshold: 50 });
    await addMember(api, owner, off.daoId, a.wallet.address);
    expectRefused(await put(off.daoId, body, a.token), 409, 'DELEGATION_DISABLED');

    // a DAO that is not ACTIVE takes no new delegation (as no new member); a removal is still taken
    expect((await put(dao.daoId, body, a.token)).status).toBe(200);
    const inactive = await api.post(
      `/daos/${dao.daoId}/status`,
      { status: 'INACTIVE' },
      { token: owner.token },
    );
    expect(inactive.status, JSON.stringify(inactive.body)).toBe(200);
    expectRefused(
      await put(
        dao.daoId,
        { delegatorAddress: b.wallet.address, delegateAddress: a.wallet.address },
        b.token,
      ),
      409,
      'DAO_NOT_ACTIVE',
    );
    expect((await del(dao.daoId, a.wallet.address, { token: a.token })).status).toBe(204);
    expect(await stored(dao.daoId)).toEqual([]);
  });
});

describe('delegating with a signature (no account)', () => {
  it('a session change orders after a signature made before it: that signature, sent later, is stale', async () => {
    const { owner, dao, members } = await delegationDao(1);
    const a = members[0]!;
    // signed a moment ago (within its window), kept, not sent
    const early = await sign(a.wallet, {
      daoId: dao.daoId,
      delegateAddress: owner.wallet.address,
      timestamp: nowS() - 30,
    });
    const stranger = newWallet().address;
    const bySession = await put(
      dao.daoId,
      { delegatorAddress: a.wallet.address, delegateAddress: stranger },
      a.token,
    );
    expect(bySession.status, JSON.stringify(bySession.body)).toBe(200);
    const late = await put(dao.daoId, {
      delegatorAddress: a.wallet.address,
      delegateAddress: owner.wallet.address,
      ...early,
    });
    expectRefused(late, 409, 'STALE_SIGNATURE');
    expect((await stored(dao.daoId))[0]!.delegateAddress).toBe(stranger);
    // the same after a session removal: the early signature cannot bring the delegation back
    expect((await del(dao.daoId, a.wallet.address, { token: a.token })).status).toBe(204);
    expectRefused(
      await put(dao.daoId, {
        delegatorAddress: a.wallet.address,
        delegateAddress: owner.wallet.address,
        ...early,
      }),
      409,
      'STALE_SIGNATURE',
    );
    expect(await stored(dao.daoId)).toEqual([]);
  });

  it('sets and removes; a replayed or older signature is 409 STALE_SIGNATURE; the clock is kept after a removal', async () => {
    const { owner, dao } = await delegationDao(0);
    const [w, x] = await walletMembers(api, owner, dao.daoId, 2);
    const t0 = nowS();
    const set = await signedPut(w!, dao.daoId, x!.address, t0);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ delegatorAddress: w!.address, delegateAddress: x!.address });
    // the same signature again, and an older one for another delegate
    const again = await put(dao.daoId, {
      delegatorAddress: w!.address,
      delegateAddress: x!.address,
      ...(await sign(w!, { daoId: dao.daoId, delegateAddress: x!.address, timestamp: t0 })),
    });
    expectRefused(again, 409, 'STALE_SIGNATURE');
    expectRefused(await signedPut(w!, dao.daoId, owner.wallet.address, t0 - 5), 409, 'STALE_SIGNATURE');
    expect((await stored(dao.daoId))[0]!.delegateAddress).toBe(x!.address);

    // a newer one replaces; the same delegate, newer, is a 200 that changes nothing but the order
    expect((await signedPut(w!, dao.daoId, owner.wallet.address, t0 + 1)).status).toBe(200);
    const sameNewer = await signedPut(w!, dao.daoId, owner.wallet.address, t0 + 2);
    expect(sameNewer.status).toBe(200);
    expectRefused(await signedPut(w!, dao.daoId, x!.address, t0 + 2), 409, 'STALE_SIGNATURE');

    // removal signs the zero address, sent in the query
    const removed = await signedDel(w!, dao.daoId, t0 + 3);
    expect(removed.status, removed.text).toBe(204);
    expect(await stored(dao.daoId)).toEqual([]);
    // the removal's signature again, and the earlier set again: both stale (the clock outlives the row)
    expectRefused(await signedDel(w!, dao.daoId, t0 + 3), 409, 'STALE_SIGNATURE');
    expectRefused(await signedPut(w!, dao.daoId, owner.wallet.address, t0 + 2), 409, 'STALE_SIGNATURE');
    const [clockRow] = await t.app.svc.db
      .select()
      .from(daoDelegationClocks)
      .where(eq(daoDelegationClocks.daoId, dao.daoId));
    expect(clockRow).toMatchObject({ delegatorAddress: w!.address, signedTimestamp: t0 + 3 });
    // a newer removal with nothing to remove: 404, and the clock stays (the refused change wrote nothing)
    expectRefused(await signedDel(w!, dao.daoId, t0 + 4), 404, 'NO_DELEGATION');
    expect((await signedPut(w!, dao.daoId, x!.address, t0 + 4)).status).toBe(200);

    const evs = await changedEvents(dao.daoId);
    expect(evs.map((e) => [e.data.from, e.data.to])).toEqual([
      [null, x!.address],
      [x!.address, owner.wallet.address],
      [owner.wallet.address, null],
      [null, x!.address],
    ]);
  });

  it('refuses a bad signature 401 as signed votes do: another signer, another message, expired, from the future', async () => {
    const { owner, dao } = await delegationDao(0);
    const [w, x] = await walletMembers(api, owner, dao.daoId, 2);
    const other = await createDao(api, owner, ON);
    await addMember(api, owner, other.daoId, w!.address);
    const body = { delegatorAddress: w!.address, delegateAddress: x!.address };
    // signed by x for w
    const byX = await sign(x!, { daoId: dao.daoId, delegateAddress: x!.address });
    expectRefused(await put(dao.daoId, { ...body, ...byX }), 401, 'INVALID_SIGNATURE');
    // another DAO's signature, another delegate's, and a set's signature used for a removal
    const forOther = await sign(w!, { daoId: other.daoId, delegateAddress: x!.address });
    expectRefused(await put(dao.daoId, { ...body, ...forOther }), 401, 'INVALID_SIGNATURE');
    const forOwner = await sign(w!, { daoId: dao.daoId, delegateAddress: owner.wallet.address });
    expectRefused(await put(dao.daoId, { ...body, ...forOwner }), 401, 'INVALID_SIGNATURE');
    expect(
      (
        await put(dao.daoId, {
          ...body,
          ...(await sign(w!, { daoId: dao.daoId, delegateAddress: x!.address })),
        })
      ).status,
    ).toBe(200);
    const setSig = await sign(w!, { daoId: dao.daoId, delegateAddress: x!.address, timestamp: nowS() + 1 });
    expectRefused(
      await del(dao.daoId, w!.address, {
        query: { signature: setSig.signature, timestamp: String(setSig.timestamp) },
      }),
      401,
      'INVALID_SIGNATURE',
    );
    expectRefused(
      await put(dao.daoId, { ...body, signature: '0x1234', timestamp: nowS() }),
      401,
      'INVALID_SIGNATURE',
    );
    expectRefused(await signedPut(w!, dao.daoId, x!.address, nowS() - 601), 401, 'SIGNATURE_EXPIRED');
    expectRefused(await signedPut(w!, dao.daoId, x!.address, nowS() + 301), 401, 'SIGNATURE_FROM_FUTURE');
    // a signature without its timestamp
    expectRefused(await put(dao.daoId, { ...body, signature: byX.signature }), 400, 'VALIDATION_FAILED');
    // the session's own checks do not apply to a signed change; the DAO's rules do
    const stranger = newWallet();
    expectRefused(await signedPut(stranger, dao.daoId, x!.address), 403, 'NOT_A_MEMBER');
    expectRefused(await signedPut(w!, dao.daoId, w!.address), 400, 'SELF_DELEGATION');
  });
});

describe('holders-open DAOs', () => {
  it('any address holding the token at the newest block may delegate; one holding none is 403 NOT_A_MEMBER', async () => {
    const [, , , , , , , , , holder] = anvil.accounts;
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Open', symbol: 'OPN' });
    await mint(anvil, token, holder!.address, units(5));
    const owner = await memberUser(api);
    const res = await api.post(
      '/daos',
      {
        name: 'Open DAO',
        ownerAddress: owner.wallet.address,
        votingRules: {
          threshold: 50,
          membership: 'token-holders',
          token: { chainId: anvil.chainId, address: token, standard: 'erc20' },
          delegation: true,
        },
      },
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const daoId = res.body.daoId as string;
    const ok = await signedPut(holder!, daoId, owner.wallet.address);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.delegatorAddress).toBe(getAddress(holder!.address));
    expectRefused(await signedPut(newWallet(), daoId, owner.wallet.address), 403, 'NOT_A_MEMBER');
    // the owner is a member but holds none: not eligible either
    expectRefused(
      await put(
        daoId,
        { delegatorAddress: owner.wallet.address, delegateAddress: holder!.address },
        owner.token,
      ),
      403,
      'NOT_A_MEMBER',
    );
  });
});

describe('delegation_changed', () => {
  it('is streamed to both transports and resumable after an event id', async () => {
    const { dao, members } = await delegationDao(2);
    const [a, b] = members as [Member, Member];
    const from = String(await maxEventId(t.app.svc));
    const sio = socketSubscriber(t, { token: a.token }, { lastEventId: from, events: 'delegation_changed' });
    const trpc = trpcSubscriber(t, b.token, { daoId: dao.daoId, events: ['delegation_changed'] });
    try {
      await sio.connected;
      await subscribed(t, { daoId: dao.daoId });
      expect(
        (
          await put(
            dao.daoId,
            { delegatorAddress: a.wallet.address, delegateAddress: b.wallet.address },
            a.token,
          )
        ).status,
      ).toBe(200);
      expect((await del(dao.daoId, a.wallet.address, { token: a.token })).status).toBe(204);
      const got = await sio.waitFor(2);
      expect(await trpc.waitFor(2)).toEqual(got);
      expect(got.map((e) => [e.type, e.daoId, e.proposalId, e.data])).toEqual([
        [
          'delegation_changed',
          dao.daoId,
          undefined,
          { daoId: dao.daoId, delegatorAddress: a.wallet.address, from: null, to: b.wallet.address },
        ],
        [
          'delegation_changed',
          dao.daoId,
          undefined,
          { daoId: dao.daoId, delegatorAddress: a.wallet.address, from: b.wallet.address, to: null },
        ],
      ]);
      // resumed after the first: the second only
      const resumed = trpcSubscriber(t, b.token, { lastEventId: got[0]!.id, daoId: dao.daoId });
      try {
        expect((await resumed.waitFor(1)).map((e) => e.id)).toEqual([got[1]!.id]);
      } finally {
        resumed.close();
      }
    } finally {
      sio.close();
      trpc.close();
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('concurrent changes of one delegator (PostgreSQL)', () => {
  it('20 PUTs, removals and signed changes at once: one row, one event per change, the chain of events ends in the row', async () => {
    const { owner, dao, members } = await delegationDao(1);
    const [a] = members as [Member];
    const delegates = Array.from({ length: 20 }, () => newWallet().address);
    const puts = delegates.map((d) =>
      put(dao.daoId, { delegatorAddress: a.wallet.address, delegateAddress: d }, a.token),
    );
    const results = await Promise.all(puts);
    expect(results.map((r) => r.status)).toEqual(delegates.map(() => 200));
    const rows = await stored(dao.daoId);
    expect(rows).toHaveLength(1);
    const evs = await changedEvents(dao.daoId);
    expect(evs).toHaveLength(20);
    let current: string | null = null;
    for (const e of evs) {
      expect(e.data.from).toBe(current);
      current = e.data.to as string | null;
    }
    expect(current).toBe(rows[0]!.delegateAddress);

    // a signed delegator: set, remove and set again at once, each a distinct signed time; the stale
    // ones 409, the missing removal 404, nothing else
    const [w] = await walletMembers(api, owner, dao.daoId, 1);
    const t0 = nowS();
    const mixed = await Promise.all(
      delegates
        .slice(0, 15)
        .map((d, i) =>
          i % 3 === 2 ? signedDel(w!, dao.daoId, t0 - 100 + i) : signedPut(w!, dao.daoId, d, t0 - 100 + i),
        ),
    );
    for (const r of mixed) expect([200, 204, 404, 409], r.text).toContain(r.status);
    for (const r of mixed.filter((r) => r.status === 409)) expect(r.body.reason).toBe('STALE_SIGNATURE');
    for (const r of mixed.filter((r) => r.status === 404)) expect(r.body.reason).toBe('NO_DELEGATION');
    const mine = (await changedEvents(dao.daoId)).filter((e) => e.data.delegatorAddress === w!.address);
    const accepted = mixed.filter((r) => r.status === 200 || r.status === 204).length;
    expect(mine).toHaveLength(accepted);
    let cur: string | null = null;
    for (const e of mine) {
      expect(e.data.from).toBe(cur);
      cur = e.data.to as string | null;
    }
    const row = (await stored(dao.daoId)).find((r) => r.delegatorAddress === w!.address);
    expect(row?.delegateAddress ?? null).toBe(cur);
    // the clock holds the newest accepted signed time
    const [clockRow] = await t.app.svc.db
      .select()
      .from(daoDelegationClocks)
      .where(eq(daoDelegationClocks.delegatorAddress, w!.address));
    expect(clockRow!.signedTimestamp).toBeGreaterThanOrEqual(t0 - 100);
  });
});
