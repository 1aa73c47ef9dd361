import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, daoWithMembers, tick } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const HOUR = 3_600_000;

describe('POST /proposals', () => {
  it('creates an ACTIVE proposal with the default options, shown on the DAO and in the lists', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1.5 });
    expect(p).toMatchObject({
      daoId: dao.daoId,
      title: 'Fund the garden',
      description: 'Buy seeds',
      creatorAddress: owner.wallet.address,
      status: 'ACTIVE',
      proposalData: { amount: '100' },
      votingOptions: ['For', 'Against', 'Abstain'],
      startTime: clock.now().toISOString(),
      endTime: new Date(clock.now().getTime() + 1.5 * HOUR).toISOString(),
      votes: [],
      voteCount: 0,
    });
    const got = await api.get(`/proposals/${p.proposalId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(p);
    const daoView = await api.get(`/daos/${dao.daoId}`);
    expect(daoView.body.proposals[0].proposalId).toBe(p.proposalId);
    expect(daoView.body.proposalCount).toBe(1);
    const list = await api.get(`/proposals/dao/${dao.daoId}`);
    expect(list.body.items.map((x: { proposalId: string }) => x.proposalId)).toEqual([p.proposalId]);
    const active = await api.get(`/proposals/dao/${dao.daoId}/active`);
    expect(active.body.pagination.total).toBe(1);
  });

  it('trims and keeps custom options; empty options mean the default', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const p = await createProposal(api, owner, dao.daoId, { votingOptions: [' Red ', 'Green', 'Blue'] });
    expect(p.votingOptions).toEqual(['Red', 'Green', 'Blue']);
    const q = await createProposal(api, owner, dao.daoId, { votingOptions: [] });
    expect(q.votingOptions).toEqual(['For', 'Against', 'Abstain']);
  });

  it.each([
    ['missing title', { title: undefined }, 'title'],
    ['title too long', { title: 'x'.repeat(201) }, 'title'],
    ['description too long', { description: 'x'.repeat(20_001) }, 'description'],
    ['duration as string', { votingDurationHours: '24' }, 'votingDurationHours'],
    ['missing duration', { votingDurationHours: undefined }, 'votingDurationHours'],
    ['duration under a second', { votingDurationHours: 0.0001 }, 'votingDurationHours'],
    ['duration over a year', { votingDurationHours: 8761 }, 'votingDurationHours'],
    ['one option', { votingOptions: ['Only'] }, 'votingOptions'],
    ['six options', { votingOptions: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'votingOptions'],
    ['duplicate options ignoring case', { votingOptions: ['Yes', 'yes '] }, 'votingOptions.1'],
    ['blank option', { votingOptions: ['a', '  '] }, 'votingOptions.1'],
    ['option too long', { votingOptions: ['a', 'x'.repeat(101)] }, 'votingOptions.1'],
    ['proposalData not an object', { proposalData: [1, 2] }, 'proposalData'],
    ['proposalData over 64 KiB', { proposalData: { blob: 'x'.repeat(65_536) } }, 'proposalData'],
    ['startTime without offset', { startTime: '2031-01-01T00:00:00' }, 'startTime'],
    ['startTime in the past', { startTime: '2029-01-01T00:00:00Z' }, 'startTime'],
    ['unknown field', { status: 'PASSED' }, ''],
    ['malformed daoId', { daoId: 'nope' }, 'daoId'],
  ])('400 for %s', async (_name, patch, field) => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const body: Record<string, unknown> = {
      daoId: dao.daoId,
      title: 'T',
      creatorAddress: owner.wallet.address,
      votingDurationHours: 2,
      ...patch,
    };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const res = await api.post('/proposals', body, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
  });

  it("400 when shorter than the DAO's minVotingPeriod", async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 48, tokenWeighted: false });
    const res = await api.post(
      '/proposals',
      { daoId: dao.daoId, title: 'T', creatorAddress: owner.wallet.address, votingDurationHours: 47.9 },
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('votingDurationHours');
    await createProposal(api, owner, dao.daoId, { votingDurationHours: 48 });
  });

  it('404 unknown DAO, 403 non-member or foreign address, 409 INACTIVE DAO, 401 without session', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const base = { title: 'T', votingDurationHours: 1 };
    const unknown = await api.post(
      '/proposals',
      { ...base, daoId: '00000000-0000-4000-8000-000000000000', creatorAddress: owner.wallet.address },
      { token: owner.token },
    );
    expect(unknown.status).toBe(404);
    const outsider = await memberUser(api);
    const nonMember = await api.post(
      '/proposals',
      { ...base, daoId: dao.daoId, creatorAddress: outsider.wallet.address },
      { token: outsider.token },
    );
    expect(nonMember.status).toBe(403);
    expect(nonMember.body.reason).toBe('NOT_A_MEMBER');
    const foreign = await api.post(
      '/proposals',
      { ...base, daoId: dao.daoId, creatorAddress: owner.wallet.address },
      { token: outsider.token },
    );
    expect(foreign.status).toBe(403);
    expect(
      (await api.post('/proposals', { ...base, daoId: dao.daoId, creatorAddress: owner.wallet.address }))
        .status,
    ).toBe(401);
    await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    const inactive = await api.post(
      '/proposals',
      { ...base, daoId: dao.daoId, creatorAddress: owner.wallet.address },
      { token: owner.token },
    );
    expect(inactive.status).toBe(409);
    expect(inactive.body.reason).toBe('DAO_NOT_ACTIVE');
  });

  it('404 for unknown proposals and DAOs on the read paths', async () => {
    const none = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/proposals/${none}`, `/proposals/dao/${none}`, `/proposals/dao/${none}/active`]) {
      expect((await api.get(path)).status, path).toBe(404);
    }
    expect((await api.get('/proposals/xyz')).status).toBe(400);
  });
});

describe('voting delay and status automation', () => {
  it('stays PENDING until startTime, then freezes the electorate and closes at endTime', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 2);
    const start = new Date(clock.now().getTime() + 2 * HOUR);
    const p = await createProposal(api, owner, dao.daoId, {
      startTime: start.toISOString(),
      votingDurationHours: 1,
    });
    expect(p.status).toBe('PENDING');
    expect(p.endTime).toBe(new Date(start.getTime() + HOUR).toISOString());
    const before = await api.get(`/votes/proposal/${p.proposalId}/results`);
    expect(before.body).toMatchObject({ status: 'PENDING', eligibleVoters: 3, totalVotes: 0 });
    const early = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: members[0]!.wallet.address, choice: 'For' },
      { token: members[0]!.token },
    );
    expect(early.status).toBe(409);
    expect(early.body.reason).toBe('PROPOSAL_NOT_ACTIVE');

    clock.set(start);
    expect(await tick(t)).toBeGreaterThanOrEqual(1);
    const started = await api.get(`/proposals/${p.proposalId}`);
    expect(started.body.status).toBe('ACTIVE');
    // a member added after the snapshot cannot vote on it
    const late = await memberUser(api);
    await addMember(api, owner, dao.daoId, late.wallet.address);
    const lateVote = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: late.wallet.address, choice: 'For' },
      { token: late.token },
    );
    expect(lateVote.status).toBe(403);
    for (const m of [owner, ...members]) {
      const v = await api.post(
        '/votes',
        { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: m.wallet.address, choice: 'For' },
        { token: m.token },
      );
      expect(v.status).toBe(201);
    }
    clock.set(start.getTime() + HOUR);
    // a read past endTime never shows a stale status, even before the scheduler runs
    const ended = await api.get(`/votes/proposal/${p.proposalId}/results`);
    expect(ended.body).toMatchObject({ status: 'PASSED', totalVotes: 3, eligibleVoters: 3, passing: true });
    const events: unknown = await t.app.dbHandle.db.execute(
      sql`select type, data from events where proposal_id = ${p.proposalId} order by id`,
    );
    const rows = (Array.isArray(events) ? events : (events as { rows: unknown[] }).rows) as {
      type: string;
      data: { from?: string; to?: string };
    }[];
    expect(rows.map((r) => r.type)).toEqual([
      'proposal_submitted',
      'proposal_status_changed',
      'vote_cast',
      'vote_cast',
      'vote_cast',
      'proposal_status_changed',
    ]);
    expect(
      rows.filter((r) => r.type === 'proposal_status_changed').map((r) => [r.data.from, r.data.to]),
    ).toEqual([
      ['PENDING', 'ACTIVE'],
      ['ACTIVE', 'PASSED'],
    ]);
  });

  it('the scheduler closes a proposal with no votes as REJECTED and lists follow', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
    clock.advance(HOUR);
    expect(await tick(t)).toBeGreaterThanOrEqual(1);
    const got = await api.get(`/proposals/${p.proposalId}`);
    expect(got.body.status).toBe('REJECTED');
    expect((await api.get(`/proposals/dao/${dao.daoId}/active`)).body.items).toEqual([]);
    expect((await api.get(`/proposals/dao/${dao.daoId}?status=REJECTED`)).body.items).toHaveLength(1);
    expect(await tick(t)).toBe(0);
  });
});
