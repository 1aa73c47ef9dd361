import {
  type Anvil,
  clients,
  delegate as delegateVotes,
  deployToken,
  mint,
  plenumTokenAbi,
  plenumVotesTokenAbi,
  startAnvil,
  type TokenStandard,
} from '@plenum/contracts';
import { ManualClock } from '@plenum/core';
import { type ElectoratePage, recordAttestor } from '@plenum/core/governance/record/index';
import { verifyRecord } from '@plenum/verify';
import { getAddress, parseUnits } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser, newWallet } from './support/factories';
import {
  addMember,
  createDao,
  createProposal,
  type Member,
  signedDelegation,
  signedVote,
  tick,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { leavesOf, readCar, rewriteCar } from './support/record-car';

/**
 * Records (docs/governance.md, "The proposal record") of proposals that read the chain or carry
 * delegations, downloaded over HTTP as an outsider would (`GET /proposals/{id}/record`, then its CAR) and
 * recounted with packages/verify, on both databases: token DAOs on anvil (erc20, erc20-votes, open to
 * holders), whose snapshot must be the block the proposal shows and whose every electorate weight must be
 * the chain's at that block, read with viem; a DAO with delegation, where the delegate changes its vote
 * and a delegator overrides it; and that CAR with one weight changed in its electorate page, which the
 * verifier names, whoever signs it again.
 */
let anvil: Anvil;
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2034-03-01T00:00:00Z'));
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

type P = { daoId: string; proposalId: string };

/** one of anvil's funded accounts, as a getter (anvil starts in beforeAll) */
const funded = (i: number) => () => anvil.accounts[i] as PrivateKeyAccount;

const sessionVote = (m: Member, p: P, choice: string) =>
  api.post('/votes', { ...p, voterAddress: m.wallet.address, choice }, { token: m.token });
const walletVote = async (w: PrivateKeyAccount, p: P, choice: string) =>
  api.post('/votes', await signedVote(w, { ...p, choice }, nowS()));

/** ends the voting period and runs the status step: the proposal closes and its record CID is fixed */
async function close(p: P) {
  clock.advance(25 * 3_600_000);
  await tick(t);
  const shown = (await api.get(`/proposals/${p.proposalId}`)).body;
  expect(shown.status).toMatch(/^(PASSED|REJECTED)$/);
  expect(shown.recordCid).toMatch(/^bafy/);
  return shown as { status: string; recordCid: string; [k: string]: unknown };
}

/** the record as a client finds it: GET /proposals/{id}/record, then its CAR over HTTP */
async function download(proposalId: string) {
  const info = await api.get(`/proposals/${proposalId}/record`);
  expect(info.status, JSON.stringify(info.body)).toBe(200);
  // the link is absolute (API_URL); this test's server listens elsewhere
  const res = await fetch(api.baseUrl + new URL(info.body.car).pathname);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/vnd.ipld.car');
  const car = new Uint8Array(await res.arrayBuffer());
  return {
    car,
    recordCid: info.body.recordCid as string,
    key: Uint8Array.from(Buffer.from(info.body.publicKey as string, 'hex')),
  };
}

/** an electorate page with one address's weight changed; other blocks untouched */
const weightIn = (address: string, weight: string) => (v: Record<string, unknown>) => {
  const entries = v.entries as ElectoratePage['entries'] | undefined;
  if (!entries?.some((e) => e.address === address)) return undefined;
  return { entries: entries.map((e) => (e.address === address ? { ...e, weight } : e)) };
};

/** the weight the chain gives an address at a block (the head without one): docs/governance.md, "Token holdings from the chain" */
function chainWeight(token: `0x${string}`, standard: TokenStandard) {
  const chain = clients(anvil).public;
  return (address: string, blockNumber?: bigint) =>
    standard === 'erc20'
      ? chain.readContract({
          address: token,
          abi: plenumTokenAbi,
          functionName: 'balanceOf',
          args: [address as `0x${string}`],
          ...(blockNumber === undefined ? {} : { blockNumber }),
        })
      : chain.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'getVotes',
          args: [address as `0x${string}`],
          ...(blockNumber === undefined ? {} : { blockNumber }),
        });
}

describe('the record of a token DAO on anvil', () => {
  // holders: two members with a session (linked wallets without ether: with erc20-votes their votes come
  // from a funded account delegating to them), two funded accounts that sign, one that does not vote
  const [w1, w2, idle, via1, via2] = [funded(1), funded(2), funded(3), funded(4), funded(5)];
  for (const standard of ['erc20', 'erc20-votes'] as const) {
    it(`${standard}: verifies; its snapshot is the proposal’s block, its electorate the chain’s weights there`, async () => {
      const token = await deployToken(anvil, { standard, name: 'Record', symbol: 'REC' });
      const weightAt = chainWeight(token, standard);
      /** gives `to` n tokens' weight: minted to it, or minted to `via` which delegates to it */
      const give = async (to: string, n: number, via: () => PrivateKeyAccount) => {
        if (standard === 'erc20') return void (await mint(anvil, token, to as `0x${string}`, units(n)));
        await mint(anvil, token, via().address, units(n));
        await delegateVotes(anvil, token, { from: via(), to: to as `0x${string}` });
      };
      const owner = await memberUser(api);
      const res = await api.post(
        '/daos',
        {
          name: 'Token record DAO',
          ownerAddress: owner.wallet.address,
          votingRules: { threshold: 50, token: { chainId: anvil.chainId, address: token, standard } },
        },
        { token: owner.token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const daoId = res.body.daoId as string;
      const [s1, s2] = [await memberUser(api), await memberUser(api)];
      const holdings: [string, number, () => PrivateKeyAccount][] = [
        [s1.wallet.address, 40, via1],
        [s2.wallet.address, 7, via2],
        [w1().address, 25, w1],
        [w2().address, 13, w2],
        [idle().address, 3, idle],
      ];
      for (const [address, n, via] of holdings) {
        await give(address, n, via);
        await addMember(api, owner, daoId, address);
      }
      const p = await createProposal(api, owner, daoId);
      expect(p.status).toBe('ACTIVE');
      const block = p.snapshotBlock as { number: string; hash: string; timestamp: string };
      expect(block.number).toMatch(/^\d+$/);
      // after the block: s2's weight grows, which the record must not see
      if (standard === 'erc20') await mint(anvil, token, s2.wallet.address, units(100));
      else await mint(anvil, token, via2().address, units(100));

      const ids = { daoId, proposalId: p.proposalId };
      const casts = [
        await sessionVote(s1, ids, 'For'),
        await walletVote(w1(), ids, 'Against'),
        await sessionVote(s2, ids, 'Against'),
        await walletVote(w2(), ids, 'For'),
      ];
      for (const c of casts) expect(c.status, JSON.stringify(c.body)).toBe(201);
      expect(casts[2]!.body.weight).toBe(units(7).toString());
      const closed = await close(ids);
      expect(closed.status).toBe('PASSED'); // For 53, Against 32

      const { car, recordCid, key } = await download(p.proposalId);
      expect(recordCid).toBe(closed.recordCid);
      const v = await verifyRecord(car, { key, expectedRoot: recordCid });
      expect(v.failures).toEqual([]);
      expect(v).toMatchObject({
        ok: true,
        status: 'PASSED',
        ballots: { counted: 4, replaced: 0, signed: 2, session: 2, sessionWeight: units(47).toString() },
      });

      const { root, get, body } = await readCar(car);
      expect(root).toBe(recordCid);
      expect(body.snapshot).toEqual({
        chainId: anvil.chainId,
        token: expect.any(String),
        standard,
        blockNumber: Number(block.number),
        blockHash: block.hash,
        blockTime: block.timestamp,
      });
      expect(getAddress(body.snapshot!.token!)).toBe(getAddress(token));
      // the chain agrees with the record: the block's hash, and every weight read at that block
      const blockNumber = BigInt(block.number);
      expect((await clients(anvil).public.getBlock({ blockNumber })).hash).toBe(body.snapshot!.blockHash);
      const entries = leavesOf<ElectoratePage>(get, body.electorate.pages).flatMap((pg) => pg.entries);
      expect(entries.length).toBe(body.electorate.count);
      expect(entries.map((e) => e.address).sort()).toEqual(holdings.map(([a]) => a.toLowerCase()).sort());
      for (const e of entries)
        expect(e.weight, e.address).toBe((await weightAt(e.address, blockNumber)).toString());
      // and not the weights of today
      expect(await weightAt(s2.wallet.address)).toBe(units(107));
      expect(entries.find((e) => e.address === s2.wallet.address.toLowerCase())!.weight).toBe(
        units(7).toString(),
      );
    }, 60_000);
  }
});

/** the delegator's wallet delegates to `to` (a signed PUT) */
async function delegateTo(w: PrivateKeyAccount, daoId: string, to: string) {
  const res = await api.put(
    `/daos/${daoId}/delegation`,
    await signedDelegation(w, { daoId, delegateAddress: to }, nowS()),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('the record of a token DAO open to holders', () => {
  it('verifies: non-member holders’ entries are their balances at the block; eligibleWeight the supply there', async () => {
    const [member, holder, bystander] = [funded(6), funded(7), funded(8)];
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Open record', symbol: 'OPR' });
    await mint(anvil, token, member().address, units(12));
    await mint(anvil, token, holder().address, units(30));
    await mint(anvil, token, bystander().address, units(8));
    const owner = await memberUser(api);
    const res = await api.post(
      '/daos',
      {
        name: 'Open token record DAO',
        ownerAddress: owner.wallet.address,
        votingRules: {
          threshold: 50,
          membership: 'token-holders',
          delegation: true,
          token: { chainId: anvil.chainId, address: token, standard: 'erc20' },
        },
      },
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const daoId = res.body.daoId as string;
    await addMember(api, owner, daoId, member().address);
    // a holder that is no member delegates: frozen with the members at the start, carried by its delegate
    await delegateTo(bystander(), daoId, member().address);
    const p = await createProposal(api, owner, daoId);
    const ids = { daoId, proposalId: p.proposalId };
    const casts = [await walletVote(member(), ids, 'Against'), await walletVote(holder(), ids, 'For')];
    for (const c of casts) expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(casts[0]!.body.weight).toBe(units(20).toString());
    const closed = await close(ids);
    expect(closed.status).toBe('PASSED'); // For 30, Against 12 + 8
    const { car, key } = await download(p.proposalId);
    const v = await verifyRecord(car, { key, expectedRoot: closed.recordCid });
    expect(v.failures).toEqual([]);
    const { get, body } = await readCar(car);
    expect(body.electorate).toMatchObject({
      weight: units(50).toString(),
      voters: 2,
      count: 3,
      delegation: true,
    });
    const entries = leavesOf<ElectoratePage>(get, body.electorate.pages).flatMap((pg) => pg.entries);
    const weightAt = chainWeight(token, 'erc20');
    for (const e of entries)
      expect(e.weight, e.address).toBe(
        (await weightAt(e.address, BigInt(body.snapshot!.blockNumber))).toString(),
      );
    expect(entries.map((e) => e.address).sort()).toEqual(
      [member().address, holder().address, bystander().address].map((a) => a.toLowerCase()).sort(),
    );

    // the looser totals still hold a forger: a holder's entry above the total supply, even signed again
    const inflated = await rewriteCar(
      car,
      weightIn(holder().address.toLowerCase(), units(51).toString()),
      recordAttestor(t.app.svc.config.secretKey()),
    );
    const failed = await verifyRecord(inflated, { key });
    expect([...new Set(failed.failures.map((f) => f.check))].sort()).toEqual(['electorate', 'weight']);
    expect(failed.failures).toContainEqual({
      check: 'electorate',
      message: `the entries weigh ${units(71)}, more than the total supply ${units(50)}`,
    });
  }, 60_000);
});

/**
 * a token-weighted DAO with delegation and vote changes: a delegate (session voter) with 10, three
 * delegators to it with 5, 15 and 20, and another voter with 30; the delegate votes Against and changes to
 * For, then one delegator (15) overrides it Against, as does the other voter
 */
async function delegatedProposal() {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: true,
    delegation: true,
    allowVoteChange: true,
  });
  const delegate = await memberUser(api);
  const [d1, d2, d3, other] = [newWallet(), newWallet(), newWallet(), newWallet()];
  const balances: [string, number][] = [
    [delegate.wallet.address, 10],
    [d1.address, 5],
    [d2.address, 15],
    [d3.address, 20],
    [other.address, 30],
  ];
  for (const [address, n] of balances) {
    await addMember(api, owner, dao.daoId, address);
    const put = await api.put(
      `/daos/${dao.daoId}/members/${address}`,
      { tokenBalance: String(n) },
      { token: owner.token },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  for (const d of [d1, d2, d3]) await delegateTo(d, dao.daoId, delegate.wallet.address);
  const p = await createProposal(api, owner, dao.daoId);
  const ids = { daoId: dao.daoId, proposalId: p.proposalId };
  expect((await sessionVote(delegate, ids, 'Against')).status).toBe(201);
  clock.advance(1_000);
  const byDelegate = await sessionVote(delegate, ids, 'For'); // a change: the first is kept as replaced
  expect(byDelegate.status, JSON.stringify(byDelegate.body)).toBe(201);
  expect(byDelegate.body).toMatchObject({ ownWeight: '10', delegatedWeight: '40', weight: '50' });
  clock.advance(1_000);
  const override = await walletVote(d2, ids, 'Against');
  expect(override.status, JSON.stringify(override.body)).toBe(201);
  expect(override.body.weight).toBe('15');
  expect((await walletVote(other, ids, 'Against')).status).toBe(201);
  const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
  expect(results.totalWeight).toBe('80'); // the delegate 10 + 5 + 20, d2 15, other 30
  return {
    ids,
    delegate,
    delegators: [d1, d2, d3],
    other,
    override: override.body as { voteId: string; receipt: string },
  };
}

describe('the record of a DAO with delegation', () => {
  it('verifies, and its recount is the published results', async () => {
    const { ids, delegate, delegators, override } = await delegatedProposal();
    const closed = await close(ids);
    expect(closed.status).toBe('REJECTED'); // For 35 (the delegate's 10, 5 and 20), Against 45
    const published = (await api.get(`/votes/proposal/${ids.proposalId}/results`)).body;
    const { car, key } = await download(ids.proposalId);
    const v = await verifyRecord(car, { key, expectedRoot: closed.recordCid });
    expect(v.failures).toEqual([]);
    expect(v).toMatchObject({
      ok: true,
      status: closed.status,
      ballots: { counted: 3, replaced: 1, signed: 2, session: 2 },
    });
    // the verifier recounted the record's results; they are the ones the API publishes
    const { get, body } = await readCar(car);
    const { updatedAt: _, ...publishedResults } = published;
    expect(JSON.parse(JSON.stringify(body.results))).toEqual(publishedResults);
    expect(body.electorate).toMatchObject({ delegation: true, voters: 5, weight: '80', count: 5 });
    const entries = leavesOf<ElectoratePage>(get, body.electorate.pages).flatMap((pg) => pg.entries);
    for (const d of delegators)
      expect(entries.find((e) => e.address === d.address.toLowerCase())).toMatchObject({
        delegate: delegate.wallet.address.toLowerCase(),
      });

    // once the record is on the node, the overriding delegator's receipt proves its ballot in this CAR
    await vi.waitFor(
      async () =>
        expect((await api.get(`/proposals/${ids.proposalId}/record`)).body.publishedAt).not.toBeNull(),
      { timeout: 20_000, interval: 100 },
    );
    const receipt = await api.get(`/votes/${override.voteId}/receipt`);
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(200);
    expect(receipt.body).toMatchObject({
      recordCid: closed.recordCid,
      tree: 'ballots',
      leaf: override.receipt,
    });
    const proven = await verifyRecord(car, { key, receipt: receipt.body });
    expect(proven.failures).toEqual([]);
  }, 60_000);
});

describe('a downloaded delegation record with one weight changed in its electorate page', () => {
  it('fails, naming the electorate and the weight, whoever signs it again', async () => {
    const { ids, delegate, delegators } = await delegatedProposal();
    await close(ids);
    const { car, key } = await download(ids.proposalId);
    const checks = async (bytes: Uint8Array) => {
      const v = await verifyRecord(bytes, { key });
      expect(v.ok).toBe(v.failures.length === 0);
      return [...new Set(v.failures.map((f) => f.check))].sort();
    };
    const voter = delegate.wallet.address.toLowerCase();
    const operator = recordAttestor(t.app.svc.config.secretKey());
    expect(await checks(car)).toEqual([]);

    // the delegate's weight 10 → 11: not by the record's key, the entries no longer add up, and its
    // ballot counts a weight the electorate does not give
    const tampered = await rewriteCar(car, weightIn(voter, '11'));
    expect(await checks(tampered)).toEqual(['attestation', 'electorate', 'weight']);
    // the operator itself signing the changed record changes nothing else
    const signed = await rewriteCar(car, weightIn(voter, '11'), operator);
    expect(await checks(signed)).toEqual(['electorate', 'weight']);
    const failures = (await verifyRecord(signed, { key })).failures;
    expect(failures).toContainEqual({
      check: 'electorate',
      message: 'the entries weigh 81, but eligibleWeight is 80',
    });
    expect(failures.find((f) => f.check === 'weight')?.message).toMatch(
      new RegExp(`\\(${voter}\\) counts 10 of its own, the electorate gives 11$`),
    );

    // a non-voting delegator's weight 20 → 21 with the totals made to agree: the delegate's ballot now
    // carries more, so the recount differs from the published results
    const idle = delegators[2]!.address.toLowerCase();
    const moved = await rewriteCar(
      car,
      (v) =>
        weightIn(idle, '21')(v) ??
        ('electorate' in v && 'proposal' in v
          ? { ...v, electorate: { ...(v.electorate as object), weight: '81' } }
          : undefined),
      operator,
    );
    expect(await checks(moved)).toEqual(['results']);
  }, 60_000);
});
