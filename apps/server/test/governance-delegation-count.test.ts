import { type Anvil, deployToken, mint, startAnvil } from '@plenum/contracts';
import { ManualClock, scoreBallots, storedBallot } from '@plenum/core';
import { daoDelegations, events, proposalElectorate, votes } from '@plenum/db';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { parseUnits, zeroAddress } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser, newWallet } from './support/factories';
import {
  createDao,
  createProposal,
  type Member,
  signedVote,
  tick,
  walletMembers,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Counting delegated weight (docs/governance.md, "Counting"): the electorate freezes the delegations when a
 * proposal starts; a delegate's vote carries its frozen delegators that have not voted; a delegator's own
 * vote, before or after its delegate's, takes its weight back; no chaining; a delegate who cannot vote
 * carries nothing. After every step the results equal a recount from the stored ballots and the frozen
 * electorate, on both databases, and on PostgreSQL after hundreds of concurrent votes on two instances.
 */
let anvil: Anvil;
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2033-08-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);

beforeAll(async () => {
  anvil = await startAnvil();
  t = await startTestApp({ clock, env: { CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}` } });
  api = apiClient(t.url);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

/** written out from docs/governance.md ("Delegating"), not imported from core */
const DELEGATION_TYPES = {
  Delegation: [
    { name: 'daoId', type: 'string' },
    { name: 'delegatorAddress', type: 'address' },
    { name: 'delegateAddress', type: 'address' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;

/** the delegator's wallet delegates (a signed PUT), or removes its delegation (`to` null) */
async function delegate(w: PrivateKeyAccount, daoId: string, to: string | null, via = api) {
  const timestamp = nowS();
  const signature = await w.signTypedData({
    domain: { name: 'Plenum', version: '1' },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: {
      daoId,
      delegatorAddress: w.address,
      delegateAddress: (to ?? zeroAddress) as `0x${string}`,
      timestamp: BigInt(timestamp),
    },
  });
  const res = to
    ? await via.put(`/daos/${daoId}/delegation`, {
        delegatorAddress: w.address,
        delegateAddress: to,
        signature,
        timestamp,
      })
    : await via.delete(
        `/daos/${daoId}/delegation/${w.address}?signature=${signature}&timestamp=${timestamp}`,
      );
  expect(res.status, JSON.stringify(res.body)).toBe(to ? 200 : 204);
}

/** a token-weighted DAO with delegation on whose wallet members hold the given balances */
async function weightedDao(balances: number[], rules: Record<string, unknown> = {}) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: true,
    delegation: true,
    ...rules,
  });
  const wallets = await walletMembers(api, owner, dao.daoId, balances.length);
  for (let i = 0; i < wallets.length; i += 25)
    await Promise.all(
      wallets.slice(i, i + 25).map(async (w, k) => {
        const res = await api.put(
          `/daos/${dao.daoId}/members/${w.address}`,
          { tokenBalance: String(balances[i + k]) },
          { token: owner.token },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }),
    );
  return { owner, dao, wallets };
}

type P = { daoId: string; proposalId: string };

/** a signed vote (a change must be signed after the vote it replaces: the clock moves a second first) */
async function vote(w: PrivateKeyAccount, p: P, choice: unknown, via = api) {
  const body = await signedVote(
    w,
    { daoId: p.daoId, proposalId: p.proposalId, choice: canonical(choice) },
    nowS(),
  );
  return via.post('/votes', { ...body, choice });
}
async function voteOk(w: PrivateKeyAccount, p: P, choice: unknown) {
  const res = await vote(w, p, choice);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as VoteView;
}

/** RFC 8785 for these ballots (strings, arrays of strings, objects of numbers), as a client signs them */
function canonical(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return JSON.stringify(v);
  const o = v as Record<string, number>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(o[k])}`)
    .join(',')}}`;
}

interface VoteView {
  voteId: string;
  voterAddress: string;
  choice: unknown;
  weight: string;
  ownWeight: string;
  delegatedWeight: string;
}
interface Results {
  options: { option: string; votes: number; weight: string }[];
  totalVotes: number;
  totalWeight: string;
  eligibleWeight: string;
  turnoutPercent: number;
  hidden: boolean;
  status: string;
}

const results = async (proposalId: string) =>
  (await api.get(`/votes/proposal/${proposalId}/results`)).body as Results;

const fixed18 = (n: bigint) => {
  const s = n.toString().padStart(19, '0');
  return `${s.slice(0, -18)}.${s.slice(-18)}`;
};

/**
 * The recount: from the stored counted ballots and the frozen electorate only, each counted vote weighs its
 * voter's frozen weight plus that of its frozen delegators without a counted vote (docs/governance.md,
 * "Counting"). Every stored vote, every vote the API shows, and the API's results must equal it. Returns
 * the results.
 */
async function expectRecount(p: { proposalId: string }, system: string, options: string[]) {
  const db = t.app.svc.db;
  const [counted, electorate] = await Promise.all([
    db
      .select()
      .from(votes)
      .where(and(eq(votes.proposalId, p.proposalId), isNull(votes.replacedAt))),
    db.select().from(proposalElectorate).where(eq(proposalElectorate.proposalId, p.proposalId)),
  ]);
  const voted = new Set(counted.map((v) => v.voterAddress));
  const own = new Map(electorate.map((e) => [e.address, BigInt(e.weight)]));
  const expected = new Map<string, { own: bigint; delegated: bigint }>();
  for (const v of counted) {
    let delegated = 0n;
    for (const e of electorate)
      if (e.delegateAddress === v.voterAddress && !voted.has(e.address)) delegated += BigInt(e.weight);
    expected.set(v.voterAddress, { own: own.get(v.voterAddress)!, delegated });
  }
  const stored = (v: { ownWeight: string; delegatedWeight: string; weight: string }) => [
    v.ownWeight,
    v.delegatedWeight,
    v.weight,
  ];
  const want = (voter: string) => {
    const e = expected.get(voter)!;
    return [e.own.toString(), e.delegated.toString(), (e.own + e.delegated).toString()];
  };
  for (const v of counted) expect(stored(v), v.voterAddress).toEqual(want(v.voterAddress));
  // the API's views of the counted votes
  const list = (await api.get(`/votes/proposal/${p.proposalId}?limit=100&sort=oldest`)).body;
  expect(list.pagination.total).toBe(counted.length);
  for (const v of list.items as VoteView[]) expect(stored(v), v.voterAddress).toEqual(want(v.voterAddress));

  const r = await results(p.proposalId);
  const recount = scoreBallots(
    system as never,
    options,
    counted.map((v) => {
      const e = expected.get(v.voterAddress)!;
      return { ballot: storedBallot(system as never, options, v.choice), weight: e.own + e.delegated };
    }),
  );
  expect(r.totalVotes).toBe(counted.length);
  expect(r.totalWeight).toBe(recount.totalWeight.toString());
  if (!r.hidden) {
    const unit = (s: bigint) => (recount.unit === 'fixed18' ? fixed18(s) : s.toString());
    expect(r.options.map((o) => [o.option, o.weight])).toEqual(
      recount.options.map((o, i) => [o, unit(recount.scores[i]!)]),
    );
  }
  return r;
}

const weights = (r: Results) => Object.fromEntries(r.options.map((o) => [o.option, o.weight]));

/** the vote_cast events of a proposal, oldest first */
async function voteCasts(proposalId: string) {
  const rows = await t.app.svc.db
    .select()
    .from(events)
    .where(and(eq(events.proposalId, proposalId), eq(events.type, 'vote_cast')))
    .orderBy(asc(events.id));
  return rows.map((e) => e.data as { vote: VoteView; results: Results; replaces: string | null });
}

const power = async (proposalId: string, address: string) =>
  (await api.get(`/proposals/${proposalId}/voting-power/${address}`)).body as {
    weight: string;
    delegatedWeight: string;
    delegatorCount: number;
    eligible: boolean;
    hasVoted: boolean;
    delegate: { address: string; hasVoted: boolean; choice: unknown } | null;
  };

const SINGLE = ['For', 'Against', 'Abstain'];

describe('the worked example (docs/governance.md, "Counting")', () => {
  it('10 members, 4 delegations, 2 overrides: the tally after each step', async () => {
    // A..J hold 10, 20, 5, 15, 10, 5, 10, 10, 5, 10 (100 in all); C and D delegate to A, E and F to B
    const { dao, wallets, owner } = await weightedDao([10, 20, 5, 15, 10, 5, 10, 10, 5, 10]);
    const [A, B, C, D, E, F, G] = wallets as [
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
    ];
    await delegate(C, dao.daoId, A.address);
    await delegate(D, dao.daoId, A.address);
    await delegate(E, dao.daoId, B.address);
    await delegate(F, dao.daoId, B.address);
    const p = await createProposal(api, owner, dao.daoId);
    expect((p.votingRules as { delegation: boolean }).delegation).toBe(true);

    // frozen: each member's delegate, as dao_delegations held it at the start
    const frozen = await t.app.svc.db
      .select({ address: proposalElectorate.address, to: proposalElectorate.delegateAddress })
      .from(proposalElectorate)
      .where(eq(proposalElectorate.proposalId, p.proposalId));
    expect(Object.fromEntries(frozen.map((f) => [f.address, f.to]))).toEqual(
      Object.fromEntries(wallets.map((w, i) => [w.address, [null, null, A, A, B, B][i]?.address ?? null])),
    );

    // voting power before anyone votes: A would carry C and D, B would carry E and F
    expect(await power(p.proposalId, A.address)).toMatchObject({
      weight: '10',
      delegatedWeight: '20',
      delegatorCount: 2,
    });
    expect(await power(p.proposalId, C.address)).toMatchObject({
      delegatedWeight: '0',
      delegatorCount: 0,
      delegate: { address: A.address, hasVoted: false, choice: null },
    });
    expect((await power(p.proposalId, A.address)).delegate).toBeNull();

    const step = async (w: PrivateKeyAccount, choice: string, want: Record<string, string>) => {
      await voteOk(w, p, choice);
      const r = await expectRecount(p, 'single-choice', SINGLE);
      expect(weights(r)).toEqual(want);
      // the step's vote_cast carries the results after it, override included
      const last = (await voteCasts(p.proposalId)).at(-1)!;
      expect(weights(last.results)).toEqual(want);
      expect(last.results.totalWeight).toBe(r.totalWeight);
      return r;
    };
    // 1. D votes Against before its delegate: its 15 are its own
    await step(D, 'Against', { For: '0', Against: '15', Abstain: '0' });
    expect(await power(p.proposalId, A.address)).toMatchObject({ delegatedWeight: '5', delegatorCount: 1 });
    // 2. A votes For with 10 + C's 5 (D has voted)
    await step(A, 'For', { For: '15', Against: '15', Abstain: '0' });
    // C's weight goes with A's choice; D voted itself, its frozen delegate is still named
    expect((await power(p.proposalId, C.address)).delegate).toEqual({
      address: A.address,
      hasVoted: true,
      choice: 'For',
    });
    expect(await power(p.proposalId, D.address)).toMatchObject({
      hasVoted: true,
      delegate: { address: A.address, hasVoted: true, choice: 'For' },
    });
    // 3. B votes For with 20 + E's 10 + F's 5
    await step(B, 'For', { For: '50', Against: '15', Abstain: '0' });
    const bVote = (await api.get(`/votes/proposal/${p.proposalId}/voter/${B.address}`)).body as VoteView;
    expect(bVote).toMatchObject({ weight: '35', ownWeight: '20', delegatedWeight: '15' });
    // 4. E votes Against after its delegate: its 10 leave B's vote at once
    const eVote = await voteOk(E, p, 'Against');
    expect(eVote).toMatchObject({ weight: '10', ownWeight: '10', delegatedWeight: '0' });
    let r = await expectRecount(p, 'single-choice', SINGLE);
    expect(weights(r)).toEqual({ For: '40', Against: '25', Abstain: '0' });
    expect((await api.get(`/votes/${bVote.voteId}`)).body).toMatchObject({
      weight: '25',
      ownWeight: '20',
      delegatedWeight: '5',
    });
    const casts = await voteCasts(p.proposalId);
    expect(casts.at(-1)!.vote).toMatchObject({ voterAddress: E.address, weight: '10' });
    expect(weights(casts.at(-1)!.results)).toEqual({ For: '40', Against: '25', Abstain: '0' });
    // 5. G abstains with its own 10
    r = await step(G, 'Abstain', { For: '40', Against: '25', Abstain: '10' });
    expect(r).toMatchObject({ totalVotes: 5, totalWeight: '75', eligibleWeight: '100', turnoutPercent: 75 });
    expect(await power(p.proposalId, B.address)).toMatchObject({
      hasVoted: true,
      delegatedWeight: '5',
      delegatorCount: 1,
    });
    // one vote_cast per vote; none for B's vote that E's override changed
    expect((await voteCasts(p.proposalId)).map((c) => c.vote.voterAddress)).toEqual(
      [D, A, B, E, G].map((w) => w.address),
    );
    // the export shows the parts too
    const exported = (await api.get(`/votes/proposal/${p.proposalId}/export?format=json`)).body as {
      voter: string;
      weight: string;
      ownWeight: string;
      delegatedWeight: string;
    }[];
    expect(exported.find((v) => v.voter === A.address)).toMatchObject({
      weight: '15',
      ownWeight: '10',
      delegatedWeight: '5',
    });

    // the outcome is decided on these figures: For 40 of 65 decided
    clock.advance(25 * 3_600_000);
    await tick(t);
    const final = await expectRecount(p, 'single-choice', SINGLE);
    expect(final.status).toBe('PASSED');
  });
});

describe('counting rules', () => {
  it('no chaining: A → B → C gives A to B only; B voting takes B off C', async () => {
    const { dao, wallets, owner } = await weightedDao([3, 5, 7]);
    const [A, B, C] = wallets as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
    await delegate(A, dao.daoId, B.address);
    await delegate(B, dao.daoId, C.address);
    const p = await createProposal(api, owner, dao.daoId);
    expect(await voteOk(C, p, 'For')).toMatchObject({ weight: '12', ownWeight: '7', delegatedWeight: '5' });
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toMatchObject({ For: '12' });
    expect(await voteOk(B, p, 'Against')).toMatchObject({
      weight: '8',
      ownWeight: '5',
      delegatedWeight: '3',
    });
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toMatchObject({
      For: '7',
      Against: '8',
    });
    await voteOk(A, p, 'For');
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toMatchObject({
      For: '10',
      Against: '5',
    });
  });

  it('a delegate who cannot vote carries nothing: not a member, or removed after the start', async () => {
    const { dao, wallets, owner } = await weightedDao([4, 6, 8, 2]);
    const [A, B, C, D] = wallets as [
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
    ];
    const outsider = newWallet();
    await delegate(A, dao.daoId, outsider.address);
    await delegate(D, dao.daoId, C.address);
    const p = await createProposal(api, owner, dao.daoId);
    // the outsider is refused; A's weight is simply not cast
    const refused = await vote(outsider, p, 'For');
    expect(refused.status).toBe(403);
    expect(await power(p.proposalId, outsider.address)).toMatchObject({
      eligible: false,
      delegatedWeight: '0',
      delegatorCount: 0,
    });
    // C is removed after the start: its vote is refused, D's weight is not cast either
    const removed = await api.delete(`/daos/${dao.daoId}/members/${C.address}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect((await vote(C, p, 'For')).status).toBe(403);
    await voteOk(B, p, 'Against');
    const r = await expectRecount(p, 'single-choice', SINGLE);
    expect(r).toMatchObject({ totalVotes: 1, totalWeight: '6' });
    // A may still vote itself
    await voteOk(A, p, 'For');
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toMatchObject({
      For: '4',
      Against: '6',
    });
  });

  it('delegations changed after the start change nothing for that proposal; the next proposal takes them', async () => {
    const { dao, wallets, owner } = await weightedDao([1, 2, 4, 8, 16]);
    const [A, B, C, D, E] = wallets as [
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
    ];
    await delegate(C, dao.daoId, A.address);
    await delegate(D, dao.daoId, A.address);
    const p = await createProposal(api, owner, dao.daoId);
    clock.advance(1000);
    // after the start: C leaves, D moves to B, E delegates to A
    await delegate(C, dao.daoId, null);
    await delegate(D, dao.daoId, B.address);
    await delegate(E, dao.daoId, A.address);
    const stored = await t.app.svc.db
      .select()
      .from(daoDelegations)
      .where(eq(daoDelegations.daoId, dao.daoId));
    expect(stored).toHaveLength(2);
    expect(await voteOk(A, p, 'For')).toMatchObject({ weight: '13', delegatedWeight: '12' });
    expect(await voteOk(B, p, 'Against')).toMatchObject({ weight: '2', delegatedWeight: '0' });
    // E's vote is no override: E had no delegate when the proposal started
    await voteOk(E, p, 'Against');
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toMatchObject({
      For: '13',
      Against: '18',
    });
    // D's override still leaves A, its frozen delegate, not B
    await voteOk(D, p, 'Abstain');
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toEqual({
      For: '5',
      Against: '18',
      Abstain: '8',
    });

    const next = await createProposal(api, owner, dao.daoId);
    expect(await voteOk(A, next, 'For')).toMatchObject({ weight: '17', delegatedWeight: '16' });
    expect(await voteOk(B, next, 'For')).toMatchObject({ weight: '10', delegatedWeight: '8' });
    await expectRecount(next, 'single-choice', SINGLE);
  });

  it('a proposal created with delegation off counts own weights only, whatever is stored', async () => {
    const { dao, wallets, owner } = await weightedDao([3, 4]);
    const [A, B] = wallets as [PrivateKeyAccount, PrivateKeyAccount];
    await delegate(B, dao.daoId, A.address);
    const off = await api.request(
      'PATCH',
      `/daos/${dao.daoId}`,
      { votingRules: { delegation: false } },
      { token: owner.token },
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const p = await createProposal(api, owner, dao.daoId);
    expect(await voteOk(A, p, 'For')).toMatchObject({ weight: '3', ownWeight: '3', delegatedWeight: '0' });
    expect(await power(p.proposalId, A.address)).toMatchObject({ delegatedWeight: '0', delegatorCount: 0 });
    expect((await power(p.proposalId, B.address)).delegate).toBeNull();
    const frozen = await t.app.svc.db
      .select({ to: proposalElectorate.delegateAddress })
      .from(proposalElectorate)
      .where(eq(proposalElectorate.proposalId, p.proposalId));
    expect(frozen.every((f) => f.to === null)).toBe(true);
    await expectRecount(p, 'single-choice', SINGLE);
  });

  it('vote changes: a delegate changing carries what it carries now; a delegator changing moves nothing else', async () => {
    const { dao, wallets, owner } = await weightedDao([10, 3, 5, 7], { allowVoteChange: true });
    const [X, D1, D2, O] = wallets as [
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
      PrivateKeyAccount,
    ];
    await delegate(D1, dao.daoId, X.address);
    await delegate(D2, dao.daoId, X.address);
    const p = await createProposal(api, owner, dao.daoId);
    const check = async (want: Record<string, string>) =>
      expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toEqual(want);
    const first = await voteOk(X, p, 'For');
    expect(first.weight).toBe('18');
    await check({ For: '18', Against: '0', Abstain: '0' });
    clock.advance(1000);
    const changed = await voteOk(X, p, 'Against');
    expect(changed).toMatchObject({ weight: '18', delegatedWeight: '8' });
    // the replaced vote keeps the weight it had when it was replaced
    expect((await api.get(`/votes/${first.voteId}`)).body).toMatchObject({
      weight: '18',
      replacedAt: expect.any(String),
    });
    await check({ For: '0', Against: '18', Abstain: '0' });
    // D1 overrides: X's counted vote loses 3
    await voteOk(D1, p, 'For');
    await check({ For: '3', Against: '15', Abstain: '0' });
    // D1 changes: X does not move again
    clock.advance(1000);
    await voteOk(D1, p, 'Abstain');
    await check({ For: '0', Against: '15', Abstain: '3' });
    // X changes again: it carries D2 only now
    clock.advance(1000);
    expect(await voteOk(X, p, 'For')).toMatchObject({ weight: '15', delegatedWeight: '5' });
    await check({ For: '15', Against: '0', Abstain: '3' });
    await voteOk(O, p, 'Against');
    await voteOk(D2, p, 'Against');
    await check({ For: '10', Against: '12', Abstain: '3' });
    const casts = await voteCasts(p.proposalId);
    expect(casts).toHaveLength(7);
    expect(weights(casts.at(-1)!.results)).toEqual({ For: '10', Against: '12', Abstain: '3' });
  });

  it('hidden results: the vote shows its parts; results hide the options; the recount holds at the end', async () => {
    const { dao, wallets, owner } = await weightedDao([6, 2, 3], { resultsVisibility: 'after-end' });
    const [X, D1, D2] = wallets as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
    await delegate(D1, dao.daoId, X.address);
    await delegate(D2, dao.daoId, X.address);
    const p = await createProposal(api, owner, dao.daoId);
    await voteOk(X, p, 'For');
    await voteOk(D1, p, 'Against');
    const shown = (await api.get(`/votes/proposal/${p.proposalId}/voter/${X.address}`)).body as VoteView;
    expect(shown).toMatchObject({ choice: null, weight: '9', ownWeight: '6', delegatedWeight: '3' });
    const r = await expectRecount(p, 'single-choice', SINGLE);
    expect(r).toMatchObject({ hidden: true, options: [], totalWeight: '11' });
    const last = (await voteCasts(p.proposalId)).at(-1)!;
    expect(last.results).toMatchObject({ hidden: true, options: [], totalWeight: '11' });
    expect(last.vote.choice).toBeNull();
    // the delegator reads that its delegate voted, not how
    expect((await power(p.proposalId, D2.address)).delegate).toEqual({
      address: X.address,
      hasVoted: true,
      choice: null,
    });
    clock.advance(25 * 3_600_000);
    await tick(t);
    const final = await expectRecount(p, 'single-choice', SINGLE);
    expect(final.hidden).toBe(false);
    expect(weights(final)).toEqual({ For: '9', Against: '2', Abstain: '0' });
    expect((await power(p.proposalId, D2.address)).delegate).toMatchObject({ choice: 'For' });
  });
});

describe('a DAO open to token holders', () => {
  it('its holders who delegate are frozen with their weight at the block, members or not', async () => {
    const units = (n: number) => parseUnits(String(n), 18);
    // fresh wallets: they only sign; the token is minted to them
    const [x, h1, h2, late] = [newWallet(), newWallet(), newWallet(), newWallet()];
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Open', symbol: 'OPN' });
    for (const [w, n] of [
      [x!, 10],
      [h1!, 7],
      [h2!, 2],
      [late!, 3],
    ] as const)
      await mint(anvil, token, w.address, units(n));
    const owner = await memberUser(api);
    const created = await api.post(
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
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const daoId = created.body.daoId as string;
    const add = await api.post(
      `/daos/${daoId}/members`,
      { memberAddress: x!.address },
      { token: owner.token },
    );
    expect(add.status).toBe(201);
    // h1 and h2 hold the token but are no members
    await delegate(h1!, daoId, x!.address);
    await delegate(h2!, daoId, x!.address);
    const p = await createProposal(api, owner, daoId);
    expect(p.status).toBe('ACTIVE');
    const frozen = await t.app.svc.db
      .select()
      .from(proposalElectorate)
      .where(eq(proposalElectorate.proposalId, p.proposalId));
    expect(Object.fromEntries(frozen.map((e) => [e.address, [e.weight, e.delegateAddress]]))).toEqual({
      [x!.address]: [units(10).toString(), null],
      [h1!.address]: [units(7).toString(), x!.address],
      [h2!.address]: [units(2).toString(), x!.address],
    });
    const options = SINGLE;
    expect(await voteOk(x!, p, 'For')).toMatchObject({ weight: units(19).toString() });
    await expectRecount(p, 'single-choice', options);
    // a frozen delegator overrides; a holder delegating after the start votes with its own weight only
    await delegate(late!, daoId, x!.address);
    await voteOk(h1!, p, 'Against');
    await voteOk(late!, p, 'Against');
    const r = await expectRecount(p, 'single-choice', options);
    expect(weights(r)).toEqual({
      For: units(12).toString(),
      Against: units(10).toString(),
      Abstain: '0',
    });
  });
});

describe('every voting system counts delegated weight exactly', () => {
  const options = ['A', 'B', 'C', 'D'];
  const ballots: Record<string, unknown[]> = {
    approval: [['A', 'B'], ['C'], ['B', 'D'], ['A'], ['D', 'C']],
    weighted: [{ A: 2, B: 1 }, { C: 1 }, { B: 1, D: 3 }, { A: 1 }, { D: 1.5, C: 0.5 }],
    quadratic: [{ A: 2, B: 1 }, { C: 1 }, { B: 1, D: 3 }, { A: 1 }, { D: 1.5, C: 0.5 }],
    'ranked-choice': [['A', 'B'], ['C', 'A'], ['B', 'D', 'C'], ['D'], ['C', 'B']],
  };
  for (const system of Object.keys(ballots)) {
    it(`${system}: delegates, overrides before and after, a change`, async () => {
      const { dao, wallets, owner } = await weightedDao([7, 3, 11, 5, 2, 13, 4], { allowVoteChange: true });
      const w = wallets;
      // 2, 3 → 0; 4, 5 → 1; 6 delegates to nobody
      await delegate(w[2]!, dao.daoId, w[0]!.address);
      await delegate(w[3]!, dao.daoId, w[0]!.address);
      await delegate(w[4]!, dao.daoId, w[1]!.address);
      await delegate(w[5]!, dao.daoId, w[1]!.address);
      const p = await createProposal(api, owner, dao.daoId, { votingSystem: system, votingOptions: options });
      const b = ballots[system]!;
      const steps: [number, unknown][] = [
        [0, b[0]], // 7 + 11 + 5
        [4, b[1]], // before its delegate: 2 of its own
        [1, b[2]], // 3 + 13 (4 has voted)
        [2, b[3]], // after its delegate: 11 leave 0's vote
        [5, b[4]], // 13 leave 1's vote
        [0, b[2]], // a change: 7 + 5
        [6, b[1]],
      ];
      for (const [i, ballot] of steps) {
        clock.advance(1000);
        await voteOk(w[i]!, p, ballot);
        const r = await expectRecount(p, system, options);
        // the step's vote_cast carries the results after it
        const last = (await voteCasts(p.proposalId)).at(-1)!;
        expect(last.results.options).toEqual(r.options);
        expect(last.results.totalWeight).toBe(r.totalWeight);
      }
      const r = await results(p.proposalId);
      expect(r).toMatchObject({ totalVotes: 6, totalWeight: String(7 + 3 + 11 + 5 + 2 + 13 + 4) });
    });
  }
});

describe.runIf(TEST_DB === 'postgres')('concurrency on PostgreSQL, two instances', () => {
  let b: TestApp;
  let apiB: ApiClient;
  beforeAll(async () => {
    b = await startTestApp({ clock, databaseUrl: t.databaseUrl! });
    apiB = apiClient(b.url);
  });
  afterAll(() => b.close());

  it('200 votes of delegates and their delegators at once, then changes and late overrides at once', async () => {
    // 40 delegates, 200 delegators (5 each); weights 1..13
    const n = 240;
    const { dao, wallets, owner } = await weightedDao(
      Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 13)),
      { allowVoteChange: true },
    );
    const delegates = wallets.slice(0, 40);
    const delegators = wallets.slice(40);
    for (let i = 0; i < delegators.length; i += 50)
      await Promise.all(
        delegators
          .slice(i, i + 50)
          .map((d, k) => delegate(d, dao.daoId, delegates[(i + k) % 40]!.address, k % 2 ? api : apiB)),
      );
    const p = await createProposal(api, owner, dao.daoId);
    // a delegate's votes go to one instance, its delegators' to the other: their batches race on the
    // counting lock across instances (delegator k delegates to delegate k mod 40)
    const index = new Map(wallets.map((w, i) => [w.address, i]));
    const via = (w: PrivateKeyAccount) => {
      const i = index.get(w.address)!;
      return (i < 40 ? i : (i - 40) % 40) % 2 === (i < 40 ? 0 : 1) ? api : apiB;
    };
    const choiceOf = (i: number) => SINGLE[i % 3]!;

    // wave 1: every delegate and 160 delegators, 200 votes at once, alternating instances
    const wave1 = [...delegates, ...delegators.slice(0, 160)];
    const signed1 = await Promise.all(
      wave1.map((w, i) =>
        signedVote(w, { daoId: dao.daoId, proposalId: p.proposalId, choice: choiceOf(i) }, nowS()),
      ),
    );
    const res1 = await Promise.all(signed1.map((body, i) => via(wave1[i]!).post('/votes', body)));
    expect(res1.map((r) => r.status)).toEqual(wave1.map(() => 201));
    for (const r of res1) {
      const v = r.body as VoteView;
      expect(BigInt(v.weight)).toBe(BigInt(v.ownWeight) + BigInt(v.delegatedWeight));
    }
    let r = await expectRecountAll(p);
    expect(r.totalVotes).toBe(200);

    // wave 2: the other 40 delegators' first votes, 40 delegates' and 40 delegators' changes, at once
    clock.advance(1000);
    const deadlocksBefore = await deadlocks();
    const wave2 = [...delegators.slice(160), ...delegates, ...delegators.slice(0, 40)];
    const signed2 = await Promise.all(
      wave2.map((w, i) =>
        signedVote(w, { daoId: dao.daoId, proposalId: p.proposalId, choice: choiceOf(i + 1) }, nowS()),
      ),
    );
    const res2 = await Promise.all(signed2.map((body, i) => via(wave2[i]!).post('/votes', body)));
    expect(res2.map((x) => x.status)).toEqual(wave2.map(() => 201));
    r = await expectRecountAll(p);
    expect(r.totalVotes).toBe(240);
    // a change locks the vote it replaces only under the counting lock, where overrides update earlier
    // votes of delegates: never a deadlock (the batcher would retry one unseen, a second later)
    expect(await deadlocks()).toBe(deadlocksBefore);
    // everyone voted: every vote carries its own weight only, and the turnout is whole
    expect(r.totalWeight).toBe(r.eligibleWeight);

    // one vote_cast per vote; in event order the counted weight never goes down (an override moves
    // weight, a change replaces it), and the last event carries the final results
    const casts = await voteCasts(p.proposalId);
    expect(casts).toHaveLength(320);
    const totals = casts.map((c) => BigInt(c.results.totalWeight));
    expect(totals.every((w, i) => i === 0 || w >= totals[i - 1]!)).toBe(true);
    expect(weights(casts.at(-1)!.results)).toEqual(weights(r));
  });

  /** the deadlocks PostgreSQL has detected in the test's database, once its statistics are flushed */
  async function deadlocks() {
    await new Promise((r) => setTimeout(r, 1500));
    const rows = (await t.app.dbHandle.db.execute(
      sql`select deadlocks::int as n from pg_stat_database where datname = current_database()`,
    )) as unknown as { n: number }[] | { rows: { n: number }[] };
    return (Array.isArray(rows) ? rows : rows.rows)[0]!.n;
  }

  /** the recount, with the list read page by page (more votes than one page) */
  async function expectRecountAll(p: { proposalId: string }) {
    const db = t.app.svc.db;
    const [counted, electorate] = await Promise.all([
      db
        .select()
        .from(votes)
        .where(and(eq(votes.proposalId, p.proposalId), isNull(votes.replacedAt))),
      db.select().from(proposalElectorate).where(eq(proposalElectorate.proposalId, p.proposalId)),
    ]);
    const voted = new Set(counted.map((v) => v.voterAddress));
    const carried = new Map<string, bigint>();
    for (const e of electorate)
      if (e.delegateAddress && !voted.has(e.address))
        carried.set(e.delegateAddress, (carried.get(e.delegateAddress) ?? 0n) + BigInt(e.weight));
    const own = new Map(electorate.map((e) => [e.address, BigInt(e.weight)]));
    const byOption = new Map<string, bigint>(SINGLE.map((o) => [o, 0n]));
    for (const v of counted) {
      const want = own.get(v.voterAddress)! + (carried.get(v.voterAddress) ?? 0n);
      expect([v.ownWeight, v.delegatedWeight, v.weight], v.voterAddress).toEqual([
        own.get(v.voterAddress)!.toString(),
        (carried.get(v.voterAddress) ?? 0n).toString(),
        want.toString(),
      ]);
      byOption.set(v.choice, byOption.get(v.choice)! + want);
    }
    const r = await results(p.proposalId);
    expect(r.totalVotes).toBe(counted.length);
    expect(weights(r)).toEqual(Object.fromEntries([...byOption].map(([o, w]) => [o, w.toString()])));
    expect(r.totalWeight).toBe([...byOption.values()].reduce((a, c) => a + c, 0n).toString());
    return r;
  }
});

describe('a suspended delegate', () => {
  it('cannot vote, so carries nothing; its delegators still vote themselves', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 0, delegation: true });
    const x = await memberUser(api);
    const add = await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: x.wallet.address },
      { token: owner.token },
    );
    expect(add.status).toBe(201);
    const [d1, d2] = await walletMembers(api, owner, dao.daoId, 2);
    await delegate(d1!, dao.daoId, x.wallet.address);
    await delegate(d2!, dao.daoId, x.wallet.address);
    const p = await createProposal(api, owner, dao.daoId);
    await t.app.dbHandle.db.execute(sql`update users set status = 'suspended' where id = ${x.id}`);
    const refused = await vote(x.wallet, p, 'For');
    expect([refused.status, refused.body.detail]).toEqual([403, 'ACCOUNT_SUSPENDED']);
    expect(await power(p.proposalId, x.wallet.address)).toMatchObject({
      delegatedWeight: '0',
      delegatorCount: 0,
    });
    await voteOk(d1!, p, 'Against');
    const r = await expectRecount(p, 'single-choice', SINGLE);
    expect(r).toMatchObject({ totalVotes: 1, totalWeight: '1' });
  });
});

// a session vote counts the same way (the batch does not care how a vote came)
describe('session votes', () => {
  it("a delegate voting with its session carries its delegators; a delegator's session vote overrides", async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 0, delegation: true });
    const users: Member[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await memberUser(api);
      const res = await api.post(
        `/daos/${dao.daoId}/members`,
        { memberAddress: u.wallet.address },
        { token: owner.token },
      );
      expect(res.status).toBe(201);
      users.push(u);
    }
    const [X, D1, D2] = users as [Member, Member, Member];
    for (const d of [D1, D2]) {
      const res = await api.put(
        `/daos/${dao.daoId}/delegation`,
        { delegatorAddress: d.wallet.address, delegateAddress: X.wallet.address },
        { token: d.token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const p = await createProposal(api, owner, dao.daoId);
    const cast = (u: Member, choice: string) =>
      api.post(
        '/votes',
        { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: u.wallet.address, choice },
        { token: u.token },
      );
    const x = await cast(X, 'For');
    expect(x.status).toBe(201);
    // an equal-weight DAO: 1 each
    expect(x.body).toMatchObject({ weight: '3', ownWeight: '1', delegatedWeight: '2' });
    expect((await cast(D1, 'Against')).status).toBe(201);
    expect(weights(await expectRecount(p, 'single-choice', SINGLE))).toEqual({
      For: '2',
      Against: '1',
      Abstain: '0',
    });
  });
});
