import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { createDao, createProposal, daoWithMembers, type Member, tick } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { cancel, grantRole, patch, query } from './support/proposal-lifecycle';

/**
 * Editing a proposal (docs/governance.md, "Editing a proposal"): by its author or a DAO admin, only while
 * PENDING before its start, the whole checked as at creation, recorded in the proposal's history with the
 * changed fields only, and announced as `proposal_updated`.
 */

const HOUR = 3_600_000;
const clock = new ManualClock(Date.parse('2031-05-01T00:00:00Z'));
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const inHours = (h: number) => new Date(clock.now().getTime() + h * HOUR).toISOString();

/** a proposal opening in 10 hours and running 48, by `creator` */
const pending = (creator: Member, daoId: string, extra: Record<string, unknown> = {}) =>
  createProposal(api, creator, daoId, { startTime: inHours(10), votingDurationHours: 48, ...extra });

const updatedEvents = (proposalId: string) =>
  query(
    t,
    sql`select data from events where proposal_id = ${proposalId} and type = 'proposal_updated' order by id`,
  ).then((rows) => rows.map((r) => r.data as Record<string, unknown>));

describe('editing a proposal', () => {
  it('by its author while PENDING: the fields laid over it, history with the changed fields, one event', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const author = members[0]!;
    const p = await pending(author, dao.daoId, { votingOptions: ['Oak', 'Elm'] });
    const res = await patch(
      api,
      `/proposals/${p.proposalId}`,
      { title: 'Fund the orchard', description: 'Buy trees', proposalData: { amount: '250' } },
      author.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      proposalId: p.proposalId,
      status: 'PENDING',
      title: 'Fund the orchard',
      description: 'Buy trees',
      proposalData: { amount: '250' },
      votingOptions: ['Oak', 'Elm'],
      startTime: p.startTime,
      endTime: p.endTime,
    });
    const history = await api.get(`/proposals/${p.proposalId}/history`);
    expect(history.status).toBe(200);
    expect(history.body.items).toEqual([
      {
        changedAt: clock.now().toISOString(),
        actorAddress: author.wallet.address,
        changes: {
          title: { from: 'Fund the garden', to: 'Fund the orchard' },
          description: { from: 'Buy seeds', to: 'Buy trees' },
          proposalData: { from: { amount: '100' }, to: { amount: '250' } },
        },
      },
    ]);
    const events = await updatedEvents(p.proposalId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      proposalId: p.proposalId,
      title: 'Fund the orchard',
      changes: { title: { from: 'Fund the garden', to: 'Fund the orchard' } },
    });

    // the same again changes nothing: no entry, no event
    const same = await patch(api, `/proposals/${p.proposalId}`, { title: 'Fund the orchard' }, author.token);
    expect(same.status).toBe(200);
    expect((await api.get(`/proposals/${p.proposalId}/history`)).body.items).toHaveLength(1);
    expect(await updatedEvents(p.proposalId)).toHaveLength(1);
    // the same proposalData with its keys in another order is no change either
    const url = `/proposals/${p.proposalId}`;
    expect(
      (await patch(api, url, { proposalData: { zeta: 1, alpha: { y: 2, x: 1 } } }, owner.token)).status,
    ).toBe(200);
    expect(
      (await patch(api, url, { proposalData: { alpha: { x: 1, y: 2 }, zeta: 1 } }, owner.token)).status,
    ).toBe(200);
    const entries = (await api.get(`${url}/history`)).body.items;
    expect(entries).toHaveLength(2);
    expect(entries[0].actorAddress).toBe(owner.wallet.address);
    expect(await updatedEvents(p.proposalId)).toHaveLength(2);
  });

  it('a new startTime moves endTime; a new duration moves endTime alone; basic takes its own options', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const p = await pending(owner, dao.daoId, { votingOptions: ['A', 'B', 'C'] });
    const moved = await patch(api, `/proposals/${p.proposalId}`, { startTime: inHours(20) }, owner.token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.startTime).toBe(inHours(20));
    expect(moved.body.endTime).toBe(inHours(68));
    const longer = await patch(api, `/proposals/${p.proposalId}`, { votingDurationHours: 72 }, owner.token);
    expect(longer.body).toMatchObject({ startTime: inHours(20), endTime: inHours(92) });
    const basic = await patch(api, `/proposals/${p.proposalId}`, { votingSystem: 'basic' }, owner.token);
    expect(basic.status, JSON.stringify(basic.body)).toBe(200);
    expect(basic.body).toMatchObject({ votingSystem: 'basic', votingOptions: ['For', 'Against', 'Abstain'] });
    const history = (await api.get(`/proposals/${p.proposalId}/history?limit=2`)).body;
    expect(history.pagination).toMatchObject({ total: 3, totalPages: 2 });
    // newest first
    expect(Object.keys(history.items[0].changes).sort()).toEqual(['votingOptions', 'votingSystem']);
    expect(history.items[1].changes).toEqual({ endTime: { from: inHours(68), to: inHours(92) } });
    const oldest = (await api.get(`/proposals/${p.proposalId}/history?limit=2&page=2`)).body.items;
    expect(oldest[0].changes).toEqual({
      startTime: { from: inHours(10), to: inHours(20) },
      endTime: { from: inHours(58), to: inHours(68) },
    });
  });

  it('checked as at creation: 400 with field issues, and nothing is written', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 24 });
    const p = await pending(owner, dao.daoId, { votingOptions: ['A', 'B'] });
    const url = `/proposals/${p.proposalId}`;
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ title: '   ' }, 'title'],
      [{ votingOptions: ['A', 'a'] }, 'votingOptions.1', 'options_distinct'],
      [{ votingOptions: ['Only'] }, 'votingOptions', 'options_count'],
      [{ votingSystem: 'basic', votingOptions: ['A', 'B'] }, 'votingOptions', 'basic_options'],
      [{ description: 'x'.repeat(20_001) }, 'description'],
      [{ proposalData: { blob: 'x'.repeat(70_000) } }, 'proposalData', 'too_long_64k'],
      [{ votingDurationHours: 0 }, 'votingDurationHours', 'at_least_one_second'],
      [{ votingDurationHours: 12 }, 'votingDurationHours', 'too_small'],
      [{ startTime: inHours(-1) }, 'startTime'],
      [{ startTime: inHours(24 * 366) }, 'startTime'],
      [{ status: 'PASSED' }, ''],
      [{ creatorAddress: owner.wallet.address }, ''],
    ];
    for (const [body, path, code] of cases) {
      const res = await patch(api, url, body, owner.token);
      expect(res.status, `${JSON.stringify(body).slice(0, 80)} ${JSON.stringify(res.body)}`).toBe(400);
      if (path) {
        const issue = res.body.issues.find((i: { path: string }) => i.path === path);
        expect(issue, JSON.stringify(res.body.issues)).toBeDefined();
        if (code) expect(issue.code).toBe(code);
      }
    }
    const after = (await api.get(url)).body;
    expect(after).toMatchObject({ title: p.title, votingOptions: ['A', 'B'], endTime: p.endTime });
    expect((await api.get(`${url}/history`)).body.items).toEqual([]);
    expect(await updatedEvents(p.proposalId)).toEqual([]);
  });

  it("its author, the DAO's owner and admins may; moderators, authors by role, members and strangers may not", async () => {
    const { owner, dao, members } = await daoWithMembers(api, 2);
    const [author, member] = members as [Member, Member];
    const admin = await memberUser(api);
    const moderator = await memberUser(api);
    const authorRole = await memberUser(api);
    await grantRole(t, dao.daoId, admin.wallet.address, 'admin');
    await grantRole(t, dao.daoId, moderator.wallet.address, 'moderator');
    await grantRole(t, dao.daoId, authorRole.wallet.address, 'author');
    const stranger = await memberUser(api);
    const p = await pending(author, dao.daoId);
    const url = `/proposals/${p.proposalId}`;
    for (const who of [moderator, authorRole, member, stranger]) {
      const res = await patch(api, url, { title: 'Taken over' }, who.token);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.reason).toBe('NOT_DAO_ADMIN');
      const power = await api.get(`/proposals/${p.proposalId}/voting-power/${who.wallet.address}`);
      expect(power.body.canEdit).toBe(false);
    }
    expect((await patch(api, url, { title: 'Anonymous' })).status).toBe(401);
    const notMine = await patch(api, url, { title: 'x', actorAddress: owner.wallet.address }, author.token);
    expect(notMine.body.reason).toBe('NOT_YOUR_ADDRESS');
    for (const [i, who] of [author, owner, admin].entries()) {
      const power = await api.get(`/proposals/${p.proposalId}/voting-power/${who.wallet.address}`);
      expect(power.body.canEdit).toBe(true);
      const res = await patch(api, url, { title: `Edit ${i}` }, who.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const history = (await api.get(`${url}/history`)).body.items;
    expect(history.map((h: { actorAddress: string }) => h.actorAddress)).toEqual([
      admin.wallet.address,
      owner.wallet.address,
      author.wallet.address,
    ]);
    expect(
      (await patch(api, '/proposals/00000000-0000-4000-8000-000000000000', {}, owner.token)).status,
    ).toBe(404);
  });

  it('409 PROPOSAL_NOT_PENDING once voting started (also before the scheduler ran), or once cancelled', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const active = await createProposal(api, owner, dao.daoId);
    const res = await patch(api, `/proposals/${active.proposalId}`, { title: 'Late' }, owner.token);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('PROPOSAL_NOT_PENDING');
    const power = await api.get(`/proposals/${active.proposalId}/voting-power/${owner.wallet.address}`);
    expect(power.body).toMatchObject({ canEdit: false, canCancel: true });

    const p = await pending(owner, dao.daoId);
    const q = await pending(owner, dao.daoId);
    expect((await cancel(api, q.proposalId, {}, owner.token)).status).toBe(200);
    const cancelled = await patch(api, `/proposals/${q.proposalId}`, { title: 'Revived' }, owner.token);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.reason).toBe('PROPOSAL_NOT_PENDING');

    await t.app.scheduler.stop();
    try {
      clock.advance(10 * HOUR);
      const started = await patch(api, `/proposals/${p.proposalId}`, { title: 'Just in time?' }, owner.token);
      expect(started.status).toBe(409);
      expect(started.body.reason).toBe('PROPOSAL_NOT_PENDING');
      expect((await api.get(`/proposals/${p.proposalId}`)).body).toMatchObject({
        status: 'ACTIVE',
        title: 'Fund the garden',
      });
    } finally {
      t.app.scheduler.start();
    }
  });

  it('the vote path sees the edited options and times (nothing of a PENDING proposal is cached)', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const voter = members[0]!;
    const p = await pending(owner, dao.daoId, { votingOptions: ['Oak', 'Elm'] });
    const vote = (choice: string) =>
      api.post(
        '/votes',
        { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice },
        { token: voter.token },
      );
    const early = await vote('Oak');
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe('NOT_STARTED');
    const edited = await patch(
      api,
      `/proposals/${p.proposalId}`,
      { votingOptions: ['Birch', 'Ash'], startTime: inHours(2) },
      owner.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    clock.advance(3 * HOUR);
    expect((await vote('Oak')).status).toBe(400);
    const ok = await vote('Birch');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    clock.advance(48 * HOUR);
    await tick(t);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results).toMatchObject({ status: 'PASSED', winningOption: 'Birch', totalVotes: 1 });
  });
});

describe.runIf(TEST_DB === 'postgres')('edits at once', () => {
  it('many edits at once all apply in order: the history has each, nothing is lost', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const admin = await memberUser(api);
    await grantRole(t, dao.daoId, admin.wallet.address, 'admin');
    const p = await pending(owner, dao.daoId);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        patch(api, `/proposals/${p.proposalId}`, { title: `Title ${i}` }, (i % 2 ? admin : owner).token),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const history = (await api.get(`/proposals/${p.proposalId}/history?limit=100`)).body.items as {
      changes: { title: { from: string; to: string } };
    }[];
    expect(history).toHaveLength(20);
    // a chain: each edit starts where the one before ended (newest first)
    for (let i = 0; i < history.length - 1; i++)
      expect(history[i]!.changes.title.from).toBe(history[i + 1]!.changes.title.to);
    expect(history[history.length - 1]!.changes.title.from).toBe('Fund the garden');
    expect((await api.get(`/proposals/${p.proposalId}`)).body.title).toBe(history[0]!.changes.title.to);
    expect(await updatedEvents(p.proposalId)).toHaveLength(20);
  });
});
