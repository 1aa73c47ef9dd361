import { ManualClock } from '@plenum/core';
import { events, proposalTallies, votes } from '@plenum/db';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, signedVote, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Changing a vote (docs/governance.md, "Changing a vote"): with votingRules.allowVoteChange a voter's new
 * vote on an open proposal replaces the earlier one, which is kept (replacedAt) and no longer counted; the
 * tallies move exactly; under concurrency a voter ends with exactly one counted vote.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const rules = { threshold: 50, minVotingPeriod: 0, tokenWeighted: false, allowVoteChange: true };

/** the tallies equal a recount of the counted votes */
async function expectTalliesEqualRecount(proposalId: string) {
  const db = t.app.svc.db;
  const tallies = await db
    .select({
      option: proposalTallies.option,
      votes: sql<string>`sum(${proposalTallies.votes})::text`,
      weight: sql<string>`sum(${proposalTallies.weight})::text`,
    })
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposalId))
    .groupBy(proposalTallies.option);
  const recount = await db
    .select({
      option: votes.choice,
      votes: sql<string>`count(*)::text`,
      weight: sql<string>`sum(${votes.weight})::text`,
    })
    .from(votes)
    .where(and(eq(votes.proposalId, proposalId), isNull(votes.replacedAt)))
    .groupBy(votes.choice);
  const byOption = (rows: { option: string; votes: string; weight: string }[]) =>
    Object.fromEntries(rows.filter((r) => r.votes !== '0').map((r) => [r.option, `${r.votes}/${r.weight}`]));
  expect(byOption(tallies)).toEqual(byOption(recount));
}

describe('votingRules.allowVoteChange', () => {
  it('is a DAO voting rule, false by default', async () => {
    const owner = await memberUser(api);
    expect(
      ((await createDao(api, owner, rules)).votingRules as { allowVoteChange: boolean }).allowVoteChange,
    ).toBe(true);
    expect(((await createDao(api, owner)).votingRules as { allowVoteChange: boolean }).allowVoteChange).toBe(
      false,
    );
  });

  it('a second vote replaces the first: new voteId, the old one kept as replaced, tallies moved exactly', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const voter = await memberUser(api);
    await addMember(api, owner, dao.daoId, voter.wallet.address);
    // a bare wallet too, before voting starts (the electorate is frozen then)
    const [w] = await walletMembers(api, owner, dao.daoId, 1);
    const p = await createProposal(api, owner, dao.daoId);
    const cast = (choice: string) =>
      api.post(
        '/votes',
        { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice },
        { token: voter.token },
      );
    const first = await cast('For');
    expect(first.status).toBe(201);
    const second = await cast('Against');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.voteId).not.toBe(first.body.voteId);
    expect(second.body).toMatchObject({ choice: 'Against', replacedAt: null });

    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results.totalVotes).toBe(1);
    expect(results.totalWeight).toBe('1');
    const option = (name: string) => results.options.find((o: { option: string }) => o.option === name);
    expect(option('For')).toMatchObject({ votes: 0, weight: '0' });
    expect(option('Against')).toMatchObject({ votes: 1, weight: '1' });

    // the earlier vote stays readable for audit, marked replaced; lists show the counted one only
    const old = (await api.get(`/votes/${first.body.voteId}`)).body;
    expect(old).toMatchObject({ choice: 'For' });
    expect(old.replacedAt).toEqual(expect.any(String));
    const list = (await api.get(`/votes/proposal/${p.proposalId}`)).body;
    expect(list.items.map((v: { voteId: string }) => v.voteId)).toEqual([second.body.voteId]);
    expect(list.pagination.total).toBe(1);
    expect((await api.get(`/votes/proposal/${p.proposalId}/voter/${voter.wallet.address}`)).body.voteId).toBe(
      second.body.voteId,
    );
    expect((await api.get(`/proposals/${p.proposalId}`)).body.voteCount).toBe(1);

    // the event of the change says which vote it replaces, with the results after it
    const casts = (
      await t.app.svc.db
        .select()
        .from(events)
        .where(eq(events.proposalId, p.proposalId))
        .orderBy(asc(events.id))
    ).filter((e) => e.type === 'vote_cast');
    expect(casts.map((e) => (e.data as { replaces: string | null }).replaces)).toEqual([
      null,
      first.body.voteId,
    ]);
    expect((casts[1]!.data as { results: { totalVotes: number } }).results.totalVotes).toBe(1);
    await expectTalliesEqualRecount(p.proposalId);

    // changing back to the same option, and a signed change from a bare wallet, both count once
    expect((await cast('For')).status).toBe(201);
    const signed = (choice: string) =>
      signedVote(w!, { daoId: dao.daoId, proposalId: p.proposalId, choice }, nowS()).then((b) =>
        api.post('/votes', b),
      );
    const abstain = await signedVote(
      w!,
      { daoId: dao.daoId, proposalId: p.proposalId, choice: 'Abstain' },
      nowS(),
    );
    expect((await api.post('/votes', abstain)).status).toBe(201);
    // a signed change must be signed after the vote it replaces
    expect((await signed('For')).body.reason).toBe('STALE_SIGNATURE');
    clock.advance(1000);
    expect((await signed('For')).status).toBe(201);
    // the earlier signature, public on the replaced vote, cannot undo the change
    const replay = await api.post('/votes', abstain);
    expect(replay.status).toBe(409);
    expect(replay.body.reason).toBe('STALE_SIGNATURE');
    const after = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(after.totalVotes).toBe(2);
    expect(after.options.find((o: { option: string }) => o.option === 'For')).toMatchObject({
      votes: 2,
      weight: '2',
    });
    await expectTalliesEqualRecount(p.proposalId);
  });

  it('without the rule a second vote is still 409 ALREADY_VOTED', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const p = await createProposal(api, owner, dao.daoId);
    const body = {
      proposalId: p.proposalId,
      daoId: dao.daoId,
      voterAddress: owner.wallet.address,
      choice: 'For',
    };
    expect((await api.post('/votes', body, { token: owner.token })).status).toBe(201);
    const again = await api.post('/votes', { ...body, choice: 'Against' }, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('ALREADY_VOTED');
  });

  it.runIf(TEST_DB === 'postgres')(
    'simultaneous changes by one voter end with exactly one counted vote and tallies equal to a recount',
    async () => {
      const owner = await memberUser(api);
      const dao = await createDao(api, owner, rules);
      const [w] = await walletMembers(api, owner, dao.daoId, 1);
      const p = await createProposal(api, owner, dao.daoId);
      const first = await signedVote(
        w!,
        { daoId: dao.daoId, proposalId: p.proposalId, choice: 'For' },
        nowS(),
      );
      expect((await api.post('/votes', first)).status).toBe(201);
      const options = ['For', 'Against', 'Abstain'];
      const ballots = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          signedVote(
            w!,
            { daoId: dao.daoId, proposalId: p.proposalId, choice: options[i % 3]!, comment: `change ${i}` },
            // each signed later than the first vote, at distinct seconds (a change older than the counted
            // vote is refused as stale, one at the same second as well)
            nowS() + 1 + i,
          ),
        ),
      );
      const answers = await Promise.all(ballots.map((b) => api.post('/votes', b)));
      for (const a of answers) expect([201, 409]).toContain(a.status);
      expect(answers.some((a) => a.status === 201)).toBe(true);
      const counted = await t.app.svc.db
        .select()
        .from(votes)
        .where(and(eq(votes.proposalId, p.proposalId), isNull(votes.replacedAt)));
      expect(counted).toHaveLength(1);
      const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
      expect(results.totalVotes).toBe(1);
      await expectTalliesEqualRecount(p.proposalId);
    },
  );
});
