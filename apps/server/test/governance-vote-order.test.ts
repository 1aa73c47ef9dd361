import { ManualClock } from '@plenum/core';
import { proposalTallies, votes } from '@plenum/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, signedVote } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * A signed ballot never replaces a vote recorded after it reached the server, whatever its timestamp
 * says (docs/governance.md, "Changing a vote" and "Signed votes (EIP-712)"): a timestamp may be ahead of
 * the server's clock by VOTE_SIGNATURE_MAX_AHEAD_S only, and a voter's votes are ordered so that a
 * session change made after a signature dated ahead still comes after it.
 */
const rules = { threshold: 50, minVotingPeriod: 0, tokenWeighted: false, allowVoteChange: true };

async function setUp(api: ApiClient) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, rules);
  const voter = await memberUser(api);
  await addMember(api, owner, dao.daoId, voter.wallet.address);
  const p = await createProposal(api, owner, dao.daoId);
  const ids = { daoId: dao.daoId, proposalId: p.proposalId };
  const session = (choice: string) =>
    api.post('/votes', { ...ids, voterAddress: voter.wallet.address, choice }, { token: voter.token });
  const sign = (choice: string, timestamp: number) => signedVote(voter.wallet, { ...ids, choice }, timestamp);
  return { ids, voter, session, sign };
}

/** the counted choice and the tallies, which must equal a recount */
async function outcome(t: TestApp, proposalId: string) {
  const db = t.app.svc.db;
  const counted = await db
    .select({ choice: votes.choice })
    .from(votes)
    .where(and(eq(votes.proposalId, proposalId), isNull(votes.replacedAt)));
  const tallies = await db
    .select({ option: proposalTallies.option, votes: sql<string>`sum(${proposalTallies.votes})::text` })
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposalId))
    .groupBy(proposalTallies.option);
  const perOption = Object.fromEntries(
    tallies
      .filter((r) => !r.option.startsWith(' ') && r.votes !== '0')
      .map((r) => [r.option, Number(r.votes)]),
  );
  return { counted: counted.map((c) => c.choice), perOption };
}

describe('the issue as reported, with the default 5-minute window', () => {
  let t: TestApp;
  let api: ApiClient;
  const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  beforeAll(async () => {
    t = await startTestApp({ clock });
    api = apiClient(t.url);
  });
  afterAll(() => t.close());

  it('sign For 240 s ahead, change to Against with the session a second later, replay For: 409, Against counts', async () => {
    const { ids, session, sign } = await setUp(api);
    const forBallot = await sign('For', nowS() + 240);
    expect((await api.post('/votes', forBallot)).status).toBe(201);
    clock.advance(1000);
    expect((await session('Against')).status).toBe(201);
    const replay = await api.post('/votes', forBallot);
    expect([replay.status, replay.body.reason]).toEqual([409, 'STALE_SIGNATURE']);
    expect(await outcome(t, ids.proposalId)).toEqual({ counted: ['Against'], perOption: { Against: 1 } });

    // the voter's own signed change is ordered after the session vote only once it is signed later
    // than the signature dated ahead: before that it is stale too (at most the skew window)
    const forAt = forBallot.timestamp;
    expect((await api.post('/votes', await sign('Abstain', nowS()))).body.reason).toBe('STALE_SIGNATURE');
    expect((await api.post('/votes', await sign('Abstain', forAt))).body.reason).toBe('STALE_SIGNATURE');
    expect((await api.post('/votes', await sign('Abstain', forAt + 1))).status).toBe(201);
    expect(await outcome(t, ids.proposalId)).toEqual({ counted: ['Abstain'], perOption: { Abstain: 1 } });
  });
});

describe('with a 30 s skew window', () => {
  let t: TestApp;
  let api: ApiClient;
  const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
  const nowS = () => Math.floor(clock.now().getTime() / 1000);
  beforeAll(async () => {
    t = await startTestApp({ clock, env: { VOTE_SIGNATURE_MAX_AHEAD_S: '30' } });
    api = apiClient(t.url);
  });
  afterAll(() => t.close());

  it('a timestamp more than 30 s ahead is refused: 401 SIGNATURE_FROM_FUTURE', async () => {
    const { ids, sign } = await setUp(api);
    const far = await api.post('/votes', await sign('For', nowS() + 240));
    expect([far.status, far.body.reason]).toEqual([401, 'SIGNATURE_FROM_FUTURE']);
    expect(far.body.message).toMatch(/30 seconds ahead/);
    expect((await api.post('/votes', await sign('For', nowS() + 31))).status).toBe(401);
    expect((await api.post('/votes', await sign('For', nowS() + 30))).status).toBe(201);
    expect((await outcome(t, ids.proposalId)).counted).toEqual(['For']);
  });

  it('inside the window, the same sequence: the replay is stale, the session change stays', async () => {
    const { ids, session, sign } = await setUp(api);
    const forBallot = await sign('For', nowS() + 25);
    expect((await api.post('/votes', forBallot)).status).toBe(201);
    clock.advance(1000);
    expect((await session('Against')).status).toBe(201);
    // replayed now and later in its validity window: always stale
    for (const step of [0, 10_000, 60_000, 500_000]) {
      clock.advance(step);
      const replay = await api.post('/votes', forBallot);
      expect([replay.status, replay.body.reason], `after ${step} ms`).toEqual([409, 'STALE_SIGNATURE']);
    }
    expect(await outcome(t, ids.proposalId)).toEqual({ counted: ['Against'], perOption: { Against: 1 } });
  });

  it.runIf(TEST_DB === 'postgres')(
    'many concurrent replays of the signature against the session change: the session vote counts, once',
    async () => {
      for (let round = 0; round < 5; round++) {
        const { ids, session, sign } = await setUp(api);
        const forBallot = await sign('For', nowS() + 20);
        expect((await api.post('/votes', forBallot)).status).toBe(201);
        clock.advance(1000);
        const replays = Array.from({ length: 60 }, () => api.post('/votes', forBallot));
        const change = session('Against');
        const more = Array.from({ length: 60 }, () => api.post('/votes', forBallot));
        const [changed, ...refused] = await Promise.all([change, ...replays, ...more]);
        expect(changed.status, JSON.stringify(changed.body)).toBe(201);
        const reasons = new Set(refused.map((r) => `${r.status} ${r.body.reason}`));
        // before the change a replay meets the vote it signed, after it the session vote, beside it in
        // the same batch the session vote wins
        for (const r of reasons) expect(['409 STALE_SIGNATURE', '409 ALREADY_VOTED']).toContain(r);
        expect(await outcome(t, ids.proposalId)).toEqual({ counted: ['Against'], perOption: { Against: 1 } });
        const results = (await api.get(`/votes/proposal/${ids.proposalId}/results`)).body;
        expect(results.totalVotes).toBe(1);
      }
    },
  );
});
