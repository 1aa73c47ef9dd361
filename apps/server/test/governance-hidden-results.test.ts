import { ManualClock } from '@plenum/core';
import { events } from '@plenum/db';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, signedVote, tick, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Results hidden until the end (docs/governance.md, "Hidden results"): while an `after-end` proposal is
 * open, results, vote lists, single votes and vote_cast events carry the number of votes and the turnout
 * but no choice, per-option figure or signature; the voter still sees their own vote; at the end
 * everything is public at once, in the proposal_status_changed event too.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const rules = { threshold: 50, minVotingPeriod: 0, tokenWeighted: false, resultsVisibility: 'after-end' };

async function hiddenProposal() {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, rules);
  const voter = await memberUser(api);
  await addMember(api, owner, dao.daoId, voter.wallet.address);
  const wallets = await walletMembers(api, owner, dao.daoId, 2);
  const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
  return { owner, dao, voter, wallets, p };
}

describe('resultsVisibility after-end', () => {
  it('is a DAO voting rule: stored, returned, and live by default', async () => {
    const owner = await memberUser(api);
    const hidden = await createDao(api, owner, rules);
    expect((hidden.votingRules as { resultsVisibility: string }).resultsVisibility).toBe('after-end');
    const live = await createDao(api, owner);
    expect((live.votingRules as { resultsVisibility: string }).resultsVisibility).toBe('live');
    const got = await api.get(`/daos/${hidden.daoId}`);
    expect(got.body.votingRules.resultsVisibility).toBe('after-end');
    const bad = await api.post(
      '/daos',
      {
        name: 'x',
        ownerAddress: owner.wallet.address,
        votingRules: { ...rules, resultsVisibility: 'never' },
      },
      { token: owner.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.issues.some((i: { path: string }) => i.path === 'votingRules.resultsVisibility')).toBe(
      true,
    );
  });

  it('hides choices and per-option figures while open, shows the voter their own vote, reveals all at the end', async () => {
    const { dao, voter, wallets, p } = await hiddenProposal();
    const session = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice: 'For' },
      { token: voter.token },
    );
    expect(session.status).toBe(201);
    // the answer to the voter is their vote in full
    expect(session.body.choice).toBe('For');
    for (const [i, w] of wallets.entries()) {
      const ballot = await signedVote(
        w,
        { daoId: dao.daoId, proposalId: p.proposalId, choice: i === 0 ? 'Against' : 'For' },
        Math.floor(clock.now().getTime() / 1000),
      );
      expect((await api.post('/votes', ballot)).status).toBe(201);
    }

    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results).toMatchObject({
      status: 'ACTIVE',
      hidden: true,
      revealAt: p.endTime,
      options: [],
      totalVotes: 3,
      totalWeight: '3',
      winningOption: null,
      passing: null,
    });
    expect(results.turnoutPercent).toBeGreaterThan(0);

    // lists, single votes and the proposal's recent votes: no choice, no signature
    const list = (await api.get(`/votes/proposal/${p.proposalId}`)).body.items as Record<string, unknown>[];
    expect(list).toHaveLength(3);
    for (const v of list) expect(v).toMatchObject({ choice: null, signature: null, typedData: null });
    const proposal = (await api.get(`/proposals/${p.proposalId}`)).body;
    expect(proposal.voteCount).toBe(3);
    for (const v of proposal.votes) expect(v.choice).toBeNull();
    const signedOne = (await api.get(`/votes/proposal/${p.proposalId}/voter/${wallets[0]!.address}`)).body;
    expect(signedOne).toMatchObject({ choice: null, signature: null });
    expect((await api.get(`/votes/${signedOne.voteId}`)).body.choice).toBeNull();

    // except to the voter, signed in: their own vote in the list and by address
    const mine = (
      await api.get(`/votes/proposal/${p.proposalId}/voter/${voter.wallet.address}`, { token: voter.token })
    ).body;
    expect(mine.choice).toBe('For');
    const theirList = (await api.get(`/votes/proposal/${p.proposalId}`, { token: voter.token })).body
      .items as {
      voterAddress: string;
      choice: string | null;
    }[];
    expect(theirList.filter((v) => v.choice !== null).map((v) => v.voterAddress)).toEqual([
      voter.wallet.address,
    ]);
    // another signed-in member does not see it
    const other = await memberUser(api);
    const seenByOther = await api.get(`/votes/proposal/${p.proposalId}/voter/${voter.wallet.address}`, {
      token: other.token,
    });
    expect(seenByOther.body.choice).toBeNull();

    // the stored vote_cast events carry no choice and no per-option figure
    const stored = await t.app.svc.db
      .select()
      .from(events)
      .where(eq(events.proposalId, p.proposalId))
      .orderBy(asc(events.id));
    const casts = stored.filter((e) => e.type === 'vote_cast');
    expect(casts).toHaveLength(3);
    for (const e of casts) {
      const data = e.data as {
        vote: { choice: unknown; signature: unknown };
        results: { options: unknown[]; hidden: boolean };
      };
      expect(data.vote.choice).toBeNull();
      expect(data.vote.signature).toBeNull();
      expect(data.results).toMatchObject({ options: [], hidden: true });
    }
    expect(JSON.stringify(casts.map((e) => e.data))).not.toMatch(/"(For|Against)"/);

    // the end: everything public at once
    clock.advance(60 * 60 * 1000 + 1);
    await tick(t);
    const after = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(after).toMatchObject({
      status: 'PASSED',
      hidden: false,
      revealAt: null,
      winningOption: 'For',
      passing: true,
    });
    expect(after.options.find((o: { option: string }) => o.option === 'For').weight).toBe('2');
    const finalList = (await api.get(`/votes/proposal/${p.proposalId}`)).body.items as {
      choice: string | null;
    }[];
    expect(finalList.map((v) => v.choice).sort()).toEqual(['Against', 'For', 'For']);
    expect(
      (await api.get(`/votes/proposal/${p.proposalId}/voter/${wallets[0]!.address}`)).body.signature,
    ).toMatch(/^0x/);
    const [changed] = await t.app.svc.db
      .select()
      .from(events)
      .where(eq(events.proposalId, p.proposalId))
      .orderBy(asc(events.id))
      .then((rows) =>
        rows.filter(
          (e) => e.type === 'proposal_status_changed' && (e.data as { to: string }).to === 'PASSED',
        ),
      );
    expect((changed!.data as { results: { hidden: boolean; winningOption: string } }).results).toMatchObject({
      hidden: false,
      winningOption: 'For',
    });
  });

  it('a live DAO shows everything while open, as before', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const [w] = await walletMembers(api, owner, dao.daoId, 1);
    const p = await createProposal(api, owner, dao.daoId);
    const ballot = await signedVote(
      w!,
      { daoId: dao.daoId, proposalId: p.proposalId, choice: 'For' },
      Math.floor(clock.now().getTime() / 1000),
    );
    expect((await api.post('/votes', ballot)).status).toBe(201);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results).toMatchObject({ hidden: false, revealAt: null, winningOption: 'For', passing: true });
    expect((await api.get(`/votes/proposal/${p.proposalId}`)).body.items[0].choice).toBe('For');
  });
});
