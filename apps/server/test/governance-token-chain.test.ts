import {
  type Anvil,
  delegate,
  deployMulticall3,
  deployToken,
  mine,
  mint,
  startAnvil,
  transfer,
} from '@plenum/contracts';
import { ManualClock } from '@plenum/core';
import { daoMembers } from '@plenum/db';
import { getAddress, parseUnits } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser, newWallet } from './support/factories';
import { addMember, createProposal, signedVote, tick } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Token holdings from the chain (docs/governance.md, "Token holdings from the chain") against a real EVM
 * node: Foundry's anvil, started here, with OpenZeppelin ERC20 and ERC20Votes tokens (packages/contracts).
 * Weights are the chain's at each proposal's snapshot block; later transfers and delegations change
 * nothing; holders-open DAOs; an RPC that is down at the start; bad tokens and chains.
 */
let anvil: Anvil;
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2032-01-10T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
const units = (n: number) => parseUnits(String(n), 18);

beforeAll(async () => {
  anvil = await startAnvil();
  t = await startTestApp({
    clock,
    env: { CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}`, CHAIN_RPC_TIMEOUT: '2000' },
  });
  api = apiClient(t.url);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

/** a DAO of the token, created over the API by a fresh owner */
async function tokenDao(
  token: string,
  standard: 'erc20' | 'erc20-votes',
  rules: Record<string, unknown> = {},
) {
  const owner = await memberUser(api);
  const res = await api.post(
    '/daos',
    {
      name: 'Token DAO',
      ownerAddress: owner.wallet.address,
      votingRules: { threshold: 50, token: { chainId: anvil.chainId, address: token, standard }, ...rules },
    },
    { token: owner.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { owner, dao: res.body as { daoId: string; votingRules: Record<string, unknown> } };
}

const vote = async (w: PrivateKeyAccount, p: { daoId: string; proposalId: string }, choice = 'For') =>
  api.post('/votes', await signedVote(w, { daoId: p.daoId, proposalId: p.proposalId, choice }, nowS()));

describe('a DAO names its token', () => {
  it('is checked on its chain: symbol and decimals stored; bad tokens and chains are 400s', async () => {
    const token = await deployToken(anvil, { standard: 'erc20-votes', name: 'Garden', symbol: 'GRDN' });
    const { dao } = await tokenDao(token, 'erc20-votes');
    expect(dao.votingRules).toMatchObject({
      tokenWeighted: true,
      membership: 'members',
      token: {
        chainId: anvil.chainId,
        address: getAddress(token),
        standard: 'erc20-votes',
        symbol: 'GRDN',
        decimals: 18,
      },
    });
    expect((await api.get(`/daos/${dao.daoId}`)).body.votingRules.token.symbol).toBe('GRDN');

    const owner = await memberUser(api);
    const create = (votingRules: Record<string, unknown>) =>
      api.post(
        '/daos',
        { name: 'x', ownerAddress: owner.wallet.address, votingRules: { threshold: 50, ...votingRules } },
        { token: owner.token },
      );
    // an account with no code, and a plain ERC20 where votes are asked for
    const eoa = await create({
      token: { chainId: anvil.chainId, address: newWallet().address, standard: 'erc20' },
    });
    expect(eoa.status).toBe(400);
    expect(eoa.body.reason).toBe('TOKEN_NOT_FOUND');
    const plain = await deployToken(anvil, { standard: 'erc20', name: 'Plain', symbol: 'PLN' });
    const notVotes = await create({
      token: { chainId: anvil.chainId, address: plain, standard: 'erc20-votes' },
    });
    expect(notVotes.body.reason).toBe('TOKEN_NOT_FOUND');
    const unknownChain = await create({ token: { chainId: 999_999, address: plain, standard: 'erc20' } });
    expect(unknownChain.status).toBe(400);
    expect(unknownChain.body.reason).toBe('CHAIN_NOT_CONFIGURED');
    expect(
      (
        await create({
          token: { chainId: anvil.chainId, address: plain, standard: 'erc20' },
          tokenWeighted: false,
        })
      ).status,
    ).toBe(400);
    expect((await create({ membership: 'token-holders' })).status).toBe(400);

    // weights come from the chain: no manual balances
    const { owner: o2, dao: d2 } = await tokenDao(plain, 'erc20');
    const put = await api.put(
      `/daos/${d2.daoId}/members/${o2.wallet.address}`,
      { tokenBalance: '5' },
      { token: o2.token },
    );
    expect(put.status).toBe(409);
    expect(put.body.reason).toBe('BALANCES_FROM_CHAIN');
  });
});

describe('looking a token up (the DAO form)', () => {
  it('answers its symbol and decimals to a signed-in user; unknown chains and tokens are 400s', async () => {
    const token = await deployToken(anvil, { standard: 'erc20-votes', name: 'Look', symbol: 'LOOK' });
    const user = await memberUser(api);
    const path = `/chains/${anvil.chainId}/tokens/${token}?standard=erc20-votes`;
    expect((await api.get(path)).status).toBe(401);
    const found = await api.get(path, { token: user.token });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toEqual({
      chainId: anvil.chainId,
      address: getAddress(token),
      standard: 'erc20-votes',
      symbol: 'LOOK',
      decimals: 18,
    });
    const chainless = await api.get(`/chains/424242/tokens/${token}?standard=erc20`, { token: user.token });
    expect(chainless.body.reason).toBe('CHAIN_NOT_CONFIGURED');
    const eoa = await api.get(`/chains/${anvil.chainId}/tokens/${newWallet().address}?standard=erc20`, {
      token: user.token,
    });
    expect(eoa.status).toBe(400);
    expect(eoa.body.reason).toBe('TOKEN_NOT_FOUND');
  });
});

describe('voting power without a token', () => {
  it('says a member added after the start cannot vote, and that voting has ended', async () => {
    const owner = await memberUser(api);
    const dao = (
      await api.post(
        '/daos',
        { name: 'Plain', ownerAddress: owner.wallet.address, votingRules: { threshold: 50 } },
        { token: owner.token },
      )
    ).body;
    const p = await createProposal(api, owner, dao.daoId);
    const late = newWallet();
    await addMember(api, owner, dao.daoId, late.address);
    const power = async (address: string) =>
      (await api.get(`/proposals/${p.proposalId}/voting-power/${address}`)).body;
    expect(await power(owner.wallet.address)).toMatchObject({
      eligible: true,
      weight: '1',
      snapshotBlock: null,
    });
    expect(await power(late.address)).toMatchObject({
      eligible: false,
      reason: 'JOINED_AFTER_START',
      member: true,
    });
    clock.advance(25 * 3600_000);
    expect(await power(owner.wallet.address)).toMatchObject({
      eligible: false,
      reason: 'ENDED',
      weight: '1',
    });
    expect((await api.get(`/proposals/${p.proposalId}/voting-power/0x12`)).status).toBe(400);
  });
});

describe('weights at the snapshot block', () => {
  it('erc20-votes: delegated votes at the block; transfers and delegations after it change nothing', async () => {
    const [, a, b, c] = anvil.accounts;
    const token = await deployToken(anvil, { standard: 'erc20-votes', name: 'Votes', symbol: 'VOT' });
    await mint(anvil, token, a!.address, units(100));
    await mint(anvil, token, b!.address, units(50));
    await mint(anvil, token, c!.address, units(30));
    await delegate(anvil, token, { from: a!, to: a!.address });
    await delegate(anvil, token, { from: b!, to: c!.address }); // before the block: counts for c
    await delegate(anvil, token, { from: c!, to: c!.address });
    const { owner, dao } = await tokenDao(token, 'erc20-votes');
    for (const w of [a!, b!, c!]) await addMember(api, owner, dao.daoId, w.address);

    const p = await createProposal(api, owner, dao.daoId);
    expect(p.status).toBe('ACTIVE');
    const block = p.snapshotBlock as { number: string; hash: string; timestamp: string };
    expect(block.number).toMatch(/^\d+$/);
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(p.snapshotError).toBeNull();

    // after the block: a moves tokens, b delegates to a instead
    await transfer(anvil, token, { from: a!, to: b!.address, amount: units(60) });
    await delegate(anvil, token, { from: b!, to: a!.address });
    await mine(anvil, 2);

    // "can I vote?" before signing: the weight at the block, or why not
    const power = async (address: string) =>
      (await api.get(`/proposals/${p.proposalId}/voting-power/${address}`)).body;
    expect(await power(a!.address)).toMatchObject({
      eligible: true,
      weight: units(100).toString(),
      reason: null,
      member: true,
      hasVoted: false,
      snapshotBlock: block,
    });
    expect(await power(b!.address)).toMatchObject({ eligible: false, weight: '0', reason: 'NO_WEIGHT' });
    expect(await power(newWallet().address)).toMatchObject({ eligible: false, reason: 'NOT_A_MEMBER' });

    const va = await vote(a!, p);
    expect(va.status, JSON.stringify(va.body)).toBe(201);
    expect(va.body.weight).toBe(units(100).toString());
    const vc = await vote(c!, p, 'Against');
    expect(vc.body.weight).toBe(units(80).toString());
    expect((await power(a!.address)).hasVoted).toBe(true);
    const vb = await vote(b!, p);
    expect([vb.status, vb.body.reason, vb.body.detail]).toEqual([403, 'NOT_ELIGIBLE', 'NO_WEIGHT']); // delegated away at the block
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results.eligibleWeight).toBe(units(180).toString());
    expect(results.eligibleVoters).toBe(2);
    expect((await api.get(`/proposals/${p.proposalId}`)).body.snapshotBlock).toEqual(block);
    expect(results.snapshotBlock).toEqual(block);
  });

  it('erc20: balanceOf at the block; a zero balance has no vote', async () => {
    const [, , , , d, e] = anvil.accounts;
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Plain', symbol: 'PLN' });
    await mint(anvil, token, d!.address, units(10));
    const { owner, dao } = await tokenDao(token, 'erc20');
    for (const w of [d!, e!]) await addMember(api, owner, dao.daoId, w.address);
    const p = await createProposal(api, owner, dao.daoId);
    await mint(anvil, token, e!.address, units(5)); // after the block
    await transfer(anvil, token, { from: d!, to: e!.address, amount: units(10) });
    expect((await vote(d!, p)).body.weight).toBe(units(10).toString());
    expect((await vote(e!, p)).status).toBe(403);
  });
});

describe('open to token holders', () => {
  it('a non-member holder votes with its weight at the block; eligible weight is the total supply', async () => {
    const [, , , , , , f, g, h] = anvil.accounts;
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Open', symbol: 'OPN' });
    await mint(anvil, token, f!.address, units(40));
    await mint(anvil, token, h!.address, units(2));
    const { owner, dao } = await tokenDao(token, 'erc20', {
      membership: 'token-holders',
      minWeight: units(3).toString(),
    });
    expect(dao.votingRules).toMatchObject({ membership: 'token-holders', minWeight: units(3).toString() });
    const p = await createProposal(api, owner, dao.daoId);
    await mint(anvil, token, g!.address, units(1_000)); // after the block: no vote
    const power = async (address: string) =>
      (await api.get(`/proposals/${p.proposalId}/voting-power/${address}`)).body;
    expect(await power(f!.address)).toMatchObject({
      eligible: true,
      weight: units(40).toString(),
      member: false,
    });
    expect(await power(h!.address)).toMatchObject({ eligible: false, reason: 'BELOW_MIN_WEIGHT' });
    expect(await power(g!.address)).toMatchObject({ eligible: false, reason: 'NO_WEIGHT' });
    const vf = await vote(f!, p);
    expect(vf.status, JSON.stringify(vf.body)).toBe(201);
    expect(vf.body.weight).toBe(units(40).toString());
    // refused with the voting power's reason (one decision: docs/governance.md, "Voting power")
    const vg = await vote(g!, p);
    expect([vg.status, vg.body.reason, vg.body.detail]).toEqual([403, 'NOT_ELIGIBLE', 'NO_WEIGHT']);
    const vh = await vote(h!, p); // under minWeight
    expect([vh.status, vh.body.detail]).toEqual([403, 'BELOW_MIN_WEIGHT']);
    // a wallet read below the minimum at the (unchanging) block is not read again
    const reader = t.app.svc.chain;
    const before = reader.rpcRequests;
    expect((await vote(g!, p)).body.detail).toBe('NO_WEIGHT');
    expect((await vote(h!, p)).body.detail).toBe('BELOW_MIN_WEIGHT');
    expect(reader.rpcRequests).toBe(before);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results.eligibleWeight).toBe(units(42).toString());
    expect(results.totalWeight).toBe(units(40).toString());
  });
});

describe('an RPC that is down when voting should start', () => {
  it('keeps the proposal PENDING with snapshotError, refuses votes, and starts once the node is back', async () => {
    const [, a] = anvil.accounts;
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Late', symbol: 'LATE' });
    await mint(anvil, token, a!.address, units(7));
    const { owner, dao } = await tokenDao(token, 'erc20');
    await addMember(api, owner, dao.daoId, a!.address);
    await anvil.pause();
    try {
      const p = await createProposal(api, owner, dao.daoId);
      expect(p.status).toBe('PENDING');
      expect(p.snapshotError).toEqual(expect.stringContaining('could not be read'));
      expect((await api.get(`/proposals/${p.proposalId}/voting-power/${a!.address}`)).body).toMatchObject({
        eligible: false,
        reason: 'NOT_STARTED',
      });
      const refused = await vote(a!, p);
      expect(refused.status).toBe(409);
      expect([refused.body.reason, refused.body.detail]).toEqual(['PROPOSAL_NOT_ACTIVE', 'NOT_STARTED']);
      expect((await api.get(`/proposals/${p.proposalId}`)).body.status).toBe('PENDING');
      await anvil.resume();
      // the retry waits for its backoff, then the scheduler starts it
      clock.advance(10_000);
      await tick(t);
      const started = (await api.get(`/proposals/${p.proposalId}`)).body;
      expect(started).toMatchObject({ status: 'ACTIVE', snapshotError: null });
      expect(started.snapshotBlock.number).toMatch(/^\d+$/);
      expect((await vote(a!, p)).body.weight).toBe(units(7).toString());
    } finally {
      if (!anvil.pid) await anvil.resume();
    }
  });
});

describe('reading at scale', () => {
  it('freezes 10,000 members in a few dozen RPC requests', async () => {
    await deployMulticall3(anvil);
    await mine(anvil, 1);
    const token = await deployToken(anvil, { standard: 'erc20-votes', name: 'Big', symbol: 'BIG' });
    const [, a] = anvil.accounts;
    await mint(anvil, token, a!.address, units(1));
    await delegate(anvil, token, { from: a!, to: a!.address });
    const { owner, dao } = await tokenDao(token, 'erc20-votes');
    await addMember(api, owner, dao.daoId, a!.address);
    const db = t.app.svc.db;
    const extra = Array.from({ length: 9_998 }, () => ({
      daoId: dao.daoId,
      address: newWallet().address,
      tokenBalance: '0',
    }));
    for (let i = 0; i < extra.length; i += 2_000)
      await db.insert(daoMembers).values(extra.slice(i, i + 2_000));
    const reader = t.app.svc.chain;
    const before = reader.rpcRequests;
    const p = await createProposal(api, owner, dao.daoId);
    const used = reader.rpcRequests - before;
    console.log(`freeze of 10,000 members: ${used} RPC requests`);
    expect(p.status).toBe('ACTIVE');
    expect(used).toBeLessThanOrEqual(30);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results.eligibleVoters).toBe(1);
    expect(results.eligibleWeight).toBe(units(1).toString());
  });
});
