import { ManualClock, scoreBallots, storedBallot } from '@plenum/core';
import { events } from '@plenum/db';
import { asc, eq } from 'drizzle-orm';
import { verifyTypedData } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
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
 * The voting systems on the vote path (docs/governance.md, "Voting systems"): a proposal's votingSystem,
 * ballots of each shape over REST (session and EIP-712 votes), the results from the running tallies equal
 * to a recount of the stored ballots, worked examples per system, rounds for ranked-choice, bad ballots as
 * 400s on `choice`, vote changes, and finalization on each system's outcome.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2031-03-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

type Results = {
  votingSystem: string;
  options: { option: string; votes: number; weight: string; percent: number }[];
  totalVotes: number;
  totalWeight: string;
  winningOption: string | null;
  passing: boolean | null;
  rounds:
    | {
        round: number;
        scores: { option: string; votes: number; weight: string }[];
        continuing: string[];
        eliminated: string | null;
      }[]
    | null;
  status: string;
};

/** a token-weighted DAO whose wallet members hold the given balances, and its owner */
async function weightedDao(balances: number[], rules: Record<string, unknown> = {}) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: true,
    ...rules,
  });
  const wallets = await walletMembers(api, owner, dao.daoId, balances.length);
  for (const [i, w] of wallets.entries()) {
    const res = await api.put(
      `/daos/${dao.daoId}/members/${w.address}`,
      { tokenBalance: String(balances[i]) },
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { owner, dao, wallets };
}

async function proposalOf(owner: Member, daoId: string, votingSystem: string, votingOptions?: string[]) {
  return createProposal(api, owner, daoId, { votingSystem, ...(votingOptions ? { votingOptions } : {}) });
}

const vote = async (
  w: PrivateKeyAccount,
  p: { daoId: string; proposalId: string },
  choice: unknown,
  signed?: string,
) => {
  const body = await signedVote(
    w,
    { daoId: p.daoId, proposalId: p.proposalId, choice: signed ?? canonical(choice) },
    nowS(),
  );
  return api.post('/votes', { ...body, choice });
};

/**
 * RFC 8785 for the ballots of these tests (strings, arrays of strings, objects of numbers), written here
 * from docs/governance.md rather than imported: a client signs what the docs say
 */
function canonical(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return JSON.stringify(v);
  const o = v as Record<string, number>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(o[k])}`)
    .join(',')}}`;
}

const results = async (proposalId: string) =>
  (await api.get(`/votes/proposal/${proposalId}/results`)).body as Results;

/** the scores of the stored, counted ballots counted from scratch: what the running tallies must equal */
async function expectResultsEqualRecount(p: { proposalId: string }, system: string, options: string[]) {
  const list = (await api.get(`/votes/proposal/${p.proposalId}?limit=100`)).body;
  const ballots = list.items.map((v: { choice: unknown; weight: string }) => ({
    ballot: storedBallot(
      system as never,
      options,
      typeof v.choice === 'string' ? v.choice : JSON.stringify(v.choice),
    ),
    weight: BigInt(v.weight),
  }));
  const recount = scoreBallots(system as never, options, ballots);
  const r = await results(p.proposalId);
  expect(r.totalVotes).toBe(list.pagination.total);
  expect(r.totalWeight).toBe(recount.totalWeight.toString());
  const unit = (s: bigint) => (recount.unit === 'fixed18' ? fixed18(s) : s.toString());
  expect(r.options.map((o) => [o.option, o.weight])).toEqual(
    recount.options.map((o, i) => [o, unit(recount.scores[i]!)]),
  );
  return r;
}

const fixed18 = (n: bigint) => {
  const s = n.toString().padStart(19, '0');
  return `${s.slice(0, -18)}.${s.slice(-18)}`;
};

const scores = (r: Results) => Object.fromEntries(r.options.map((o) => [o.option, o.weight]));

describe('votingSystem on proposals', () => {
  it('defaults to single-choice; basic fixes For, Against, Abstain; other options for basic are a 400', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const plain = await createProposal(api, owner, dao.daoId);
    expect(plain.votingSystem).toBe('single-choice');
    const basic = await proposalOf(owner, dao.daoId, 'basic');
    expect(basic).toMatchObject({ votingSystem: 'basic', votingOptions: ['For', 'Against', 'Abstain'] });
    const spelled = await proposalOf(owner, dao.daoId, 'basic', ['abstain', 'for', 'AGAINST']);
    expect(spelled.votingOptions).toEqual(['For', 'Against', 'Abstain']);
    const bad = await api.post(
      '/proposals',
      {
        daoId: dao.daoId,
        title: 'x',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
        votingSystem: 'basic',
        votingOptions: ['Yes', 'No'],
      },
      { token: owner.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toEqual(['votingOptions']);
    const unknown = await api.post(
      '/proposals',
      {
        daoId: dao.daoId,
        title: 'x',
        creatorAddress: owner.wallet.address,
        votingDurationHours: 1,
        votingSystem: 'borda',
      },
      { token: owner.token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0].path).toBe('votingSystem');
    expect((await api.get(`/proposals/${basic.proposalId}`)).body.votingSystem).toBe('basic');
  });
});

describe('worked examples (balances 40, 30, 20, 10; threshold 50)', () => {
  it('basic: For 50, Against 30, Abstain 20 → For 62.5 % of the decided 80, passing', async () => {
    const { owner, dao, wallets } = await weightedDao([40, 30, 20, 10]);
    const p = await proposalOf(owner, dao.daoId, 'basic');
    for (const [i, c] of ['For', 'Against', 'Abstain', 'For'].entries())
      expect((await vote(wallets[i]!, p, c)).status).toBe(201);
    const r = await expectResultsEqualRecount(p, 'basic', ['For', 'Against', 'Abstain']);
    expect(r).toMatchObject({ votingSystem: 'basic', winningOption: 'For', passing: true, rounds: null });
    expect(r.options.find((o) => o.option === 'For')!.percent).toBe(62.5);
  });

  it('approval: [A,B] [B] [] [C,A] → A 50, B 70, C 10; the empty ballot counts toward turnout only', async () => {
    const { owner, dao, wallets } = await weightedDao([40, 30, 20, 10]);
    const p = await proposalOf(owner, dao.daoId, 'approval', ['A', 'B', 'C']);
    const cast = await vote(wallets[0]!, p, ['B', ' A ']);
    expect(cast.status, JSON.stringify(cast.body)).toBe(201);
    // normalized to the proposal's order and spelling; the signed text is kept as signed
    expect(cast.body.choice).toEqual(['A', 'B']);
    expect(cast.body.typedData.message.choice).toBe('["B"," A "]');
    for (const [i, c] of [['B'], [], ['C', 'A']].entries())
      expect((await vote(wallets[i + 1]!, p, c)).status).toBe(201);
    const r = await expectResultsEqualRecount(p, 'approval', ['A', 'B', 'C']);
    expect(scores(r)).toEqual({ A: '50', B: '70', C: '10' });
    expect(r.totalVotes).toBe(4);
    expect(r.totalWeight).toBe('100');
    expect(r.options.find((o) => o.option === 'B')).toMatchObject({ votes: 2, percent: 87.5 });
    expect(r).toMatchObject({ winningOption: 'B', passing: true });
    expect((await api.get(`/proposals/${p.proposalId}`)).body.voteCount).toBe(4);

    // the export: the ballot as JSON in the JSON file, its canonical text in the CSV cell
    const json = await api.get(`/votes/proposal/${p.proposalId}/export?format=json`);
    expect(json.status).toBe(200);
    expect(json.body.map((v: { choice: unknown }) => v.choice)).toEqual(
      expect.arrayContaining([['A', 'B'], ['B'], [], ['A', 'C']]),
    );
    const csv = await api.get(`/votes/proposal/${p.proposalId}/export?format=csv`);
    expect(csv.text).toContain(`,"[""A"",""B""]",`);
    expect(csv.text).toContain(',[],');
  });

  it('weighted: points split each weight → A 25, B 45, C 30 with 18 decimals; B under the threshold', async () => {
    const { owner, dao, wallets } = await weightedDao([40, 30, 20, 10]);
    const p = await proposalOf(owner, dao.daoId, 'weighted', ['A', 'B', 'C']);
    const ballots = [{ A: 1, B: 1 }, { B: 3, C: 1 }, { C: 2 }, { A: 0.5, B: 0.25, C: 0.25 }];
    for (const [i, b] of ballots.entries()) expect((await vote(wallets[i]!, p, b)).status).toBe(201);
    const r = await expectResultsEqualRecount(p, 'weighted', ['A', 'B', 'C']);
    expect(scores(r)).toEqual({
      A: '25.000000000000000000',
      B: '45.000000000000000000',
      C: '30.000000000000000000',
    });
    expect(r).toMatchObject({ winningOption: 'B', passing: false, totalWeight: '100' });
  });

  it('quadratic: 36 and 4 for A, 16 and 9 for B → Q 64 : 49 of T 65', async () => {
    const { owner, dao, wallets } = await weightedDao([36, 16, 4, 9]);
    const p = await proposalOf(owner, dao.daoId, 'quadratic', ['A', 'B']);
    for (const [i, b] of [{ A: 1 }, { B: 1 }, { A: 2 }, { B: 0.5 }].entries())
      expect((await vote(wallets[i]!, p, b)).status).toBe(201);
    const r = await expectResultsEqualRecount(p, 'quadratic', ['A', 'B']);
    // 65 × 64/113 and 65 × 49/113, to within the 10^-18 units of the fixed point
    expect(Math.abs(Number(scores(r).A) - (65 * 64) / 113)).toBeLessThan(1e-12);
    expect(Math.abs(Number(scores(r).B) - (65 * 49) / 113)).toBeLessThan(1e-12);
    expect(r.winningOption).toBe('A');
  });

  it('ranked-choice: D out, then B (tie with C, earlier), C wins 60 to 40 in round 3', async () => {
    const { owner, dao, wallets } = await weightedDao([40, 30, 20, 10]);
    const p = await proposalOf(owner, dao.daoId, 'ranked-choice', ['A', 'B', 'C', 'D']);
    for (const [i, b] of [
      ['A', 'B'],
      ['B', 'C'],
      ['C', 'B'],
      ['D', 'C'],
    ].entries())
      expect((await vote(wallets[i]!, p, b)).status).toBe(201);
    const r = await expectResultsEqualRecount(p, 'ranked-choice', ['A', 'B', 'C', 'D']);
    expect(scores(r)).toEqual({ A: '40', B: '0', C: '60', D: '0' });
    expect(r.options.map((o) => o.votes)).toEqual([1, 0, 3, 0]);
    expect(r).toMatchObject({ winningOption: 'C', passing: true, totalVotes: 4 });
    expect(r.rounds!.map((x) => x.eliminated)).toEqual(['D', 'B', null]);
    expect(r.rounds!.map((x) => x.continuing)).toEqual([
      ['A', 'B', 'C', 'D'],
      ['A', 'B', 'C'],
      ['A', 'C'],
    ]);
    expect(r.rounds![0]!.scores.map((s) => s.weight)).toEqual(['40', '30', '20', '10']);
    expect(r.rounds![1]!.scores.map((s) => [s.weight, s.votes])).toEqual([
      ['40', 1],
      ['30', 1],
      ['30', 2],
      ['0', 0],
    ]);

    // each vote_cast event of ranked-choice carries the rounds
    const casts = (
      await t.app.svc.db
        .select()
        .from(events)
        .where(eq(events.proposalId, p.proposalId))
        .orderBy(asc(events.id))
    ).filter((e) => e.type === 'vote_cast');
    expect(casts).toHaveLength(4);
    const last = casts[3]!.data as { results: Results; vote: { choice: unknown } };
    expect(last.results.rounds).toHaveLength(3);
    expect(last.vote.choice).toEqual(['D', 'C']);

    // at the end: PASSED on C, the event carries the full results
    clock.advance(25 * 3600_000);
    await tick(t);
    const done = await results(p.proposalId);
    expect(done).toMatchObject({ status: 'PASSED', winningOption: 'C' });
  });
});

describe('ballots that do not fit the system are 400s on choice, and nothing is counted', () => {
  it('names the problem per system', async () => {
    const { owner, dao, wallets } = await weightedDao([1, 1]);
    const w = wallets[0]!;
    const cases: [string, unknown, string][] = [
      ['approval', 'A', 'invalid_type'],
      ['approval', ['A', 'A'], 'duplicate_option'],
      ['approval', ['Z'], 'unknown_option'],
      ['ranked-choice', [], 'empty_ranking'],
      ['ranked-choice', { A: 1 }, 'invalid_type'],
      ['weighted', { A: -1 }, 'invalid_points'],
      ['weighted', { A: 0, B: 0 }, 'no_points'],
      ['quadratic', ['A'], 'invalid_type'],
      ['single-choice', ['A'], 'invalid_type'],
      ['basic', 'A', 'unknown_option'],
    ];
    for (const [system, choice, code] of cases) {
      const p = await proposalOf(owner, dao.daoId, system, system === 'basic' ? undefined : ['A', 'B']);
      const res = await vote(w, p, choice);
      expect(res.status, `${system} ${JSON.stringify(choice)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.issues[0]).toMatchObject({ path: 'choice', code });
      expect((await results(p.proposalId)).totalVotes).toBe(0);
    }
    // a type no system takes is refused by the input's schema
    const p = await proposalOf(owner, dao.daoId, 'approval', ['A', 'B']);
    const res = await api.post('/votes', {
      ...(await signedVote(w, { ...p, choice: '1' }, nowS())),
      choice: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('choice');
  });

  it('a signature over another ballot is a 401', async () => {
    const { owner, dao, wallets } = await weightedDao([1]);
    const p = await proposalOf(owner, dao.daoId, 'approval', ['A', 'B']);
    const res = await vote(wallets[0]!, p, ['A', 'B'], '["A"]');
    expect(res.status).toBe(401);
  });
});

describe('signed ballots of the array and object systems', () => {
  it('sign the canonical JSON; the stored vote verifies offline; the signed text may be sent as choice', async () => {
    const { owner, dao, wallets } = await weightedDao([3, 2]);
    const p = await proposalOf(owner, dao.daoId, 'weighted', ['A', 'B']);
    const guide = (await api.get('/eip712/vote')).body;
    const example = guide.examples.find((e: { votingSystem: string }) => e.votingSystem === 'weighted');
    expect(example.signedChoice).toBe('{"Option A":2.5,"Option B":1}');

    // members sorted by name, numbers as ECMAScript writes them
    const first = await vote(wallets[0]!, p, { B: 1.5, A: 2 }, '{"A":2,"B":1.5}');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.choice).toEqual({ A: 2, B: 1.5 });
    const stored = (await api.get(`/votes/${first.body.voteId}`)).body;
    expect(stored.typedData.message.choice).toBe('{"A":2,"B":1.5}');
    const { message, domain, types } = stored.typedData;
    const { EIP712Domain: _d, ...voteTypes } = types;
    expect(
      await verifyTypedData({
        address: wallets[0]!.address,
        domain,
        types: voteTypes,
        primaryType: 'Vote',
        message: { ...message, timestamp: BigInt(message.timestamp) },
        signature: stored.signature,
      }),
    ).toBe(true);

    // the signed text itself as choice
    const second = await vote(wallets[1]!, p, '{"B":1}', '{"B":1}');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.choice).toEqual({ B: 1 });
    await expectResultsEqualRecount(p, 'weighted', ['A', 'B']);
  });
});

describe('changing a ballot (allowVoteChange)', () => {
  it('moves every system’s tallies exactly', async () => {
    for (const [system, a, b] of [
      ['approval', ['A', 'B'], ['C']],
      ['weighted', { A: 1, C: 2 }, { B: 1 }],
      ['quadratic', { A: 3 }, { A: 1, B: 1, C: 1 }],
      ['ranked-choice', ['A', 'B', 'C'], ['C', 'A']],
    ] as const) {
      const { owner, dao, wallets } = await weightedDao([7, 5, 3], { allowVoteChange: true });
      const p = await proposalOf(owner, dao.daoId, system, ['A', 'B', 'C']);
      for (const w of wallets) expect((await vote(w, p, a)).status).toBe(201);
      // a signed change must be signed after the vote it replaces: a second later each time
      clock.advance(1000);
      const change = await vote(wallets[1]!, p, b);
      expect(change.status, JSON.stringify(change.body)).toBe(201);
      clock.advance(1000);
      expect((await vote(wallets[1]!, p, a)).status).toBe(201);
      expect((await vote(wallets[2]!, p, b)).status).toBe(201);
      const r = await expectResultsEqualRecount(p, system, ['A', 'B', 'C']);
      expect(r.totalVotes).toBe(3);
      expect((await api.get(`/proposals/${p.proposalId}`)).body.voteCount).toBe(3);
      expect(r.totalWeight).toBe('15');
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('concurrency', () => {
  it('simultaneous signed ballots of every array and object system: results equal the recount', async () => {
    for (const system of ['approval', 'weighted', 'ranked-choice'] as const) {
      const n = 40;
      const { owner, dao, wallets } = await weightedDao(
        Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 13)),
      );
      const p = await proposalOf(owner, dao.daoId, system, ['A', 'B', 'C', 'D']);
      const options = ['A', 'B', 'C', 'D'];
      const ballotOf = (i: number) =>
        system === 'weighted'
          ? { [options[i % 4]!]: 1 + (i % 3), [options[(i + 1) % 4]!]: 0.5 }
          : system === 'approval'
            ? options.filter((_, k) => (i >> k) & 1)
            : [options[i % 4]!, options[(i + 2) % 4]!];
      const res = await Promise.all(wallets.map((w, i) => vote(w, p, ballotOf(i))));
      expect(res.map((r) => r.status)).toEqual(wallets.map(() => 201));
      const r = await expectResultsEqualRecount(p, system, options);
      expect(r.totalVotes).toBe(n);
    }
  });
});
