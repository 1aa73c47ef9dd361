import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { linkWallet, memberUser, newWallet } from './support/factories';
import {
  addMember,
  createDao,
  createProposal,
  daoWithMembers,
  type Member,
  signedVote,
  tick,
  walletMembers,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { cancel, grantRole, query } from './support/proposal-lifecycle';

/**
 * Cancelling a proposal (docs/governance.md, "Cancelling a proposal"): who may, when, what a cancelled
 * proposal still shows, that nothing moves it afterwards, and that a cancel racing the end of voting gives
 * exactly one outcome, once across instances.
 */

const HOUR = 3_600_000;
const clock = new ManualClock(Date.parse('2031-03-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const statusEvents = (app: TestApp, proposalId: string) =>
  query(
    app,
    sql`select data from events where proposal_id = ${proposalId} and type = 'proposal_status_changed' order by id`,
  ).then((rows) => rows.map((r) => r.data as { from: string; to: string; results: Record<string, unknown> }));

const uniqueTitle = (s: string) => `${s} ${Math.random().toString(36).slice(2, 8)}`;

describe('cancelling a proposal', () => {
  it('by its author while ACTIVE: CANCELLED, votes kept and listable, results at cancellation, history, one event', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 3);
    const [author, voter, late] = members as [Member, Member, Member];
    const p = await createProposal(api, author, dao.daoId);
    expect(p.status).toBe('ACTIVE');
    const vote = (m: Member, choice: string) =>
      api.post(
        '/votes',
        { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: m.wallet.address, choice },
        { token: m.token },
      );
    // a vote first: this instance now caches the proposal as ACTIVE
    expect((await vote(voter, 'For')).status).toBe(201);
    expect((await vote(owner, 'Against')).status).toBe(201);

    const res = await cancel(api, p.proposalId, { reason: '  Superseded by a better one ' }, author.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      proposalId: p.proposalId,
      status: 'CANCELLED',
      cancellation: {
        cancelledAt: clock.now().toISOString(),
        cancelledBy: author.wallet.address,
        reason: 'Superseded by a better one',
      },
      voteCount: 2,
    });
    expect(res.body.votes).toHaveLength(2);

    // no more votes, on the instance that cached it ACTIVE too (the batch reads the status under its lock)
    const refused = await vote(late, 'For');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'PROPOSAL_NOT_ACTIVE', detail: 'CANCELLED' });
    const power = await api.get(`/proposals/${p.proposalId}/voting-power/${late.wallet.address}`);
    expect(power.body).toMatchObject({
      eligible: false,
      reason: 'CANCELLED',
      canCancel: false,
      canEdit: false,
    });

    const listed = await api.get(`/votes/proposal/${p.proposalId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(2);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results).toMatchObject({
      status: 'CANCELLED',
      cancelled: true,
      totalVotes: 2,
      winningOption: null,
      passing: null,
    });

    const history = await api.get(`/proposals/${p.proposalId}/history`);
    expect(history.status).toBe(200);
    expect(history.body.items).toEqual([
      {
        changedAt: clock.now().toISOString(),
        actorAddress: author.wallet.address,
        changes: {
          status: { from: 'ACTIVE', to: 'CANCELLED' },
          reason: { from: null, to: 'Superseded by a better one' },
        },
      },
    ]);
    const events = await statusEvents(t, p.proposalId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      from: 'ACTIVE',
      to: 'CANCELLED',
      results: { cancelled: true, totalVotes: 2 },
    });

    // closed now: a second cancel is a 409, and the end changes nothing
    const again = await cancel(api, p.proposalId, {}, owner.token);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('PROPOSAL_CLOSED');
    clock.advance(25 * HOUR);
    await tick(t);
    expect((await api.get(`/proposals/${p.proposalId}`)).body.status).toBe('CANCELLED');
    expect(await statusEvents(t, p.proposalId)).toHaveLength(1);
  });

  it('a PENDING proposal: never opens, no mail of any kind, the scheduler leaves it alone', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const voter = await memberUser(api);
    await addMember(api, owner, dao.daoId, voter.wallet.address);
    const title = uniqueTitle('Pending');
    const start = new Date(clock.now().getTime() + 2 * HOUR);
    const p = await createProposal(api, owner, dao.daoId, {
      title,
      startTime: start.toISOString(),
      votingDurationHours: 72,
    });
    expect(p.status).toBe('PENDING');
    const power = await api.get(`/proposals/${p.proposalId}/voting-power/${owner.wallet.address}`);
    expect(power.body).toMatchObject({ canCancel: true, canEdit: true });

    const res = await cancel(api, p.proposalId, {}, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cancellation).toMatchObject({ cancelledBy: owner.wallet.address, reason: null });
    // past the start, the reminder time and the end: nothing happens to it
    for (const at of [start.getTime() + HOUR, start.getTime() + 60 * HOUR, start.getTime() + 73 * HOUR]) {
      clock.set(at);
      await Promise.all([tick(t), tick(t)]);
      expect((await api.get(`/proposals/${p.proposalId}`)).body.status).toBe('CANCELLED');
    }
    const mails = await query(t, sql`select subject from email_outbox where subject like ${`%${title}`}`);
    expect(mails).toEqual([]);
    const events = await statusEvents(t, p.proposalId);
    expect(events.map((e) => [e.from, e.to])).toEqual([['PENDING', 'CANCELLED']]);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results).toMatchObject({ cancelled: true, totalVotes: 0, passing: null });
  });

  it('an ACTIVE proposal cancelled: the "voting opened" mail went out, no reminder and no outcome follow', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const voter = await memberUser(api);
    await addMember(api, owner, dao.daoId, voter.wallet.address);
    const title = uniqueTitle('Active');
    const p = await createProposal(api, owner, dao.daoId, { title, votingDurationHours: 72 });
    const subjects = async () =>
      (await query(t, sql`select subject from email_outbox where subject like ${`%: ${title}`}`)).map(
        (r) => r.subject as string,
      );
    expect((await subjects()).every((s) => s.includes('Voting is open'))).toBe(true);
    const opened = (await subjects()).length;
    expect(opened).toBe(2);
    expect((await cancel(api, p.proposalId, {}, voter.token)).status).toBe(403);
    expect((await cancel(api, p.proposalId, {}, owner.token)).status).toBe(200);
    const end = Date.parse(p.endTime as string);
    // inside the reminder window, then past the end
    for (const at of [end - 12 * HOUR, end + HOUR]) {
      clock.set(at);
      await Promise.all([tick(t), tick(t)]);
    }
    expect(await subjects()).toHaveLength(opened);
    expect((await api.get(`/proposals/${p.proposalId}`)).body.status).toBe('CANCELLED');
  });

  it("the DAO's owner, admins and moderators may cancel any; a member, an author role and strangers may not", async () => {
    const { owner, dao, members } = await daoWithMembers(api, 2);
    const [author, member] = members as [Member, Member];
    const admin = await memberUser(api);
    const moderator = await memberUser(api);
    const authorRole = await memberUser(api);
    await grantRole(t, dao.daoId, admin.wallet.address, 'admin');
    await grantRole(t, dao.daoId, moderator.wallet.address, 'moderator');
    await grantRole(t, dao.daoId, authorRole.wallet.address, 'author');
    const stranger = await memberUser(api);

    const p1 = await createProposal(api, author, dao.daoId);
    for (const who of [member, authorRole, stranger]) {
      const res = await cancel(api, p1.proposalId, {}, who.token);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.reason).toBe('NOT_DAO_ADMIN');
      const power = await api.get(`/proposals/${p1.proposalId}/voting-power/${who.wallet.address}`);
      expect(power.body.canCancel).toBe(false);
    }
    expect((await cancel(api, p1.proposalId, {})).status).toBe(401);
    // a wallet that is not the caller's, named as the actor
    const notMine = await cancel(api, p1.proposalId, { actorAddress: owner.wallet.address }, author.token);
    expect(notMine.status).toBe(403);
    expect(notMine.body.reason).toBe('NOT_YOUR_ADDRESS');
    expect((await api.get(`/proposals/${p1.proposalId}`)).body.status).toBe('ACTIVE');

    for (const who of [owner, admin, moderator]) {
      const p = await createProposal(api, author, dao.daoId);
      const power = await api.get(`/proposals/${p.proposalId}/voting-power/${who.wallet.address}`);
      expect(power.body.canCancel).toBe(true);
      const res = await cancel(api, p.proposalId, { reason: 'spam' }, who.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.cancellation.cancelledBy).toBe(who.wallet.address);
      const history = (await api.get(`/proposals/${p.proposalId}/history`)).body.items;
      expect(history[0].actorAddress).toBe(who.wallet.address);
    }
  });

  it('the author acting through a named wallet: its own creator wallet may, its other wallet may not', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const author = members[0]!;
    const other = await linkWallet(api, author, newWallet());
    const p = await createProposal(api, author, dao.daoId);
    const viaOther = await cancel(api, p.proposalId, { actorAddress: other.address }, author.token);
    expect(viaOther.status).toBe(403);
    expect(viaOther.body.reason).toBe('NOT_DAO_ADMIN');
    const viaCreator = await cancel(api, p.proposalId, { actorAddress: author.wallet.address }, author.token);
    expect(viaCreator.status, JSON.stringify(viaCreator.body)).toBe(200);
    expect(viaCreator.body.cancellation.cancelledBy).toBe(author.wallet.address);
    expect(owner).toBeDefined();
  });

  it('closed proposals: PASSED, REJECTED and ACTIVE past its end are 409 PROPOSAL_CLOSED (the end is decided first)', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
    const voted = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: members[0]!.wallet.address, choice: 'For' },
      { token: members[0]!.token },
    );
    expect(voted.status).toBe(201);
    clock.advance(HOUR);
    // not finalized yet by anyone: the cancel finalizes it through the normal path, then refuses
    const res = await cancel(api, p.proposalId, {}, owner.token);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('PROPOSAL_CLOSED');
    expect((await api.get(`/proposals/${p.proposalId}`)).body.status).toBe('PASSED');
    expect((await statusEvents(t, p.proposalId)).map((e) => e.to)).toEqual(['PASSED']);
    const power = await api.get(`/proposals/${p.proposalId}/voting-power/${owner.wallet.address}`);
    expect(power.body.canCancel).toBe(false);

    const q = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
    clock.advance(HOUR);
    await tick(t);
    expect((await api.get(`/proposals/${q.proposalId}`)).body.status).toBe('REJECTED');
    const closed = await cancel(api, q.proposalId, {}, owner.token);
    expect(closed.status).toBe(409);
    expect(closed.body.reason).toBe('PROPOSAL_CLOSED');
    expect(await api.get(`/proposals/${q.proposalId}/history`).then((r) => r.body.items)).toEqual([]);
  });

  it('bad input is a 400, an unknown proposal a 404, and nothing changes', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const p = await createProposal(api, owner, dao.daoId);
    const long = await cancel(api, p.proposalId, { reason: 'x'.repeat(1_001) }, owner.token);
    expect(long.status).toBe(400);
    expect(long.body.issues[0].path).toBe('reason');
    const extra = await cancel(api, p.proposalId, { status: 'PASSED' }, owner.token);
    expect(extra.status).toBe(400);
    expect((await cancel(api, 'not-a-uuid', {}, owner.token)).status).toBe(400);
    const missing = await cancel(api, '00000000-0000-4000-8000-000000000000', {}, owner.token);
    expect(missing.status).toBe(404);
    expect((await api.get('/proposals/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
    expect((await api.get(`/proposals/${p.proposalId}`)).body.status).toBe('ACTIVE');
  });

  it('many cancels at once: exactly one 200, the rest 409 PROPOSAL_CLOSED, one event, one history entry', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const moderator = await memberUser(api);
    await grantRole(t, dao.daoId, moderator.wallet.address, 'moderator');
    const p = await createProposal(api, members[0]!, dao.daoId);
    const callers = [owner, moderator, members[0]!];
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        cancel(api, p.proposalId, { reason: `r${i}` }, callers[i % 3]!.token),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.status)).toEqual(Array(29).fill(409));
    expect(new Set(refused.map((r) => r.body.reason))).toEqual(new Set(['PROPOSAL_CLOSED']));
    expect(await statusEvents(t, p.proposalId)).toHaveLength(1);
    expect((await api.get(`/proposals/${p.proposalId}/history`)).body.items).toHaveLength(1);
  });
});

describe.runIf(TEST_DB === 'postgres')('a cancel racing the end of voting on two instances', () => {
  let b: TestApp;
  let apiB: ApiClient;
  beforeAll(async () => {
    b = await startTestApp({ clock, databaseUrl: t.databaseUrl! });
    apiB = apiClient(b.url);
  });
  afterAll(() => b.close());

  it('exactly one of CANCELLED / PASSED / REJECTED wins, with one proposal_status_changed and every acknowledged vote counted', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const owner = (await daoWithMembers(api, 0)).owner;
      const dao = await createDao(api, owner, { threshold: 50, quorum: 10 });
      const wallets = await walletMembers(api, owner, dao.daoId, 8);
      const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
      const end = Date.parse(p.endTime as string);
      clock.set(end - 1);
      const ballots = await Promise.all(
        wallets.map((w) =>
          signedVote(w, { daoId: dao.daoId, proposalId: p.proposalId, choice: 'For' }, nowS()),
        ),
      );
      // votes, cancels on both instances, and the end of voting with both schedulers, all at once
      const votePromises = ballots.map((body, i) => (i % 2 ? api : apiB).post('/votes', body));
      const cancelPromises = Array.from({ length: 6 }, (_, i) =>
        cancel(i % 2 ? api : apiB, p.proposalId, {}, owner.token),
      );
      const ending = (async () => {
        // odd rounds: the end arrives once one cancel was answered, with the rest still in flight (that
        // one was sent before the end: CANCELLED wins); even rounds: at once (usually the end wins)
        if (round % 2) await Promise.race(cancelPromises);
        clock.set(end);
        await Promise.all([tick(t), tick(b)]);
      })();
      const [votes, cancels] = await Promise.all([
        Promise.all(votePromises),
        Promise.all(cancelPromises),
        ending,
      ]);
      const ok = cancels.filter((r) => r.status === 200);
      expect(ok.length).toBeLessThanOrEqual(1);
      expect(cancels.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
      await Promise.all([tick(t), tick(b)]);
      const final = (await apiB.get(`/proposals/${p.proposalId}`)).body.status as string;
      expect(['CANCELLED', 'PASSED', 'REJECTED']).toContain(final);
      expect(final === 'CANCELLED').toBe(ok.length === 1);
      const events = await statusEvents(t, p.proposalId);
      expect(events).toHaveLength(1);
      expect(events[0]!.to).toBe(final);
      // every acknowledged vote is in the figures the outcome (or the cancellation) stands on
      const acknowledged = votes.filter((r) => r.status === 201).length;
      expect(votes.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      expect(events[0]!.results.totalVotes).toBe(acknowledged);
      const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
      expect(results.totalVotes).toBe(acknowledged);
      outcomes.push(final);
    }
    expect(outcomes).toHaveLength(6);
    expect(outcomes).toContain('CANCELLED');
  });
});
