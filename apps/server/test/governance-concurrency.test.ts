import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import {
  createDao,
  createProposal,
  daoWithMembers,
  signedVote,
  tick,
  walletMembers,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';

const clock = new ManualClock(Date.parse('2031-01-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

type Row = Record<string, unknown>;
async function query(app: TestApp, q: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await app.app.dbHandle.db.execute(q)) as unknown;
  return (Array.isArray(res) ? res : (res as { rows: Row[] }).rows) as Row[];
}

async function recount(app: TestApp, proposalId: string) {
  const rows = await query(
    app,
    sql`select choice, count(*)::int as n, sum(weight)::text as w from votes where proposal_id = ${proposalId} group by choice`,
  );
  return Object.fromEntries(
    rows.map((r) => [r.choice as string, { votes: r.n as number, weight: r.w as string }]),
  );
}

describe('concurrency', () => {
  it('50 simultaneous votes by one voter: exactly one 201 and 49 × 409', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const p = await createProposal(api, owner, dao.daoId);
    const voter = members[0]!;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.post(
          '/votes',
          {
            proposalId: p.proposalId,
            daoId: dao.daoId,
            voterAddress: voter.wallet.address,
            choice: i % 2 ? 'For' : 'Against',
          },
          { token: voter.token },
        ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const res = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(res.totalVotes).toBe(1);
  });

  it('many voters at once: every acknowledged vote is in the results, equal to a recount', async () => {
    const owner = (await daoWithMembers(api, 0)).owner;
    const dao = await createDao(api, owner, { threshold: 50 });
    const wallets = await walletMembers(api, owner, dao.daoId, 60);
    const p = await createProposal(api, owner, dao.daoId, { votingOptions: ['A', 'B', 'C'] });
    const choices = ['A', 'B', 'C'];
    const bodies = await Promise.all(
      wallets.map((w, i) =>
        signedVote(w, { daoId: dao.daoId, proposalId: p.proposalId, choice: choices[i % 3]! }, nowS()),
      ),
    );
    const statuses = await Promise.all(bodies.map((b) => api.post('/votes', b).then((r) => r.status)));
    expect(statuses.every((s) => s === 201)).toBe(true);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results.totalVotes).toBe(60);
    const counted = await recount(t, p.proposalId);
    for (const o of results.options as { option: string; votes: number; weight: string }[]) {
      expect({ votes: o.votes, weight: o.weight }).toEqual(counted[o.option]);
    }
    // one vote_cast per vote, and the results they carry grow one vote at a time in event order
    const events = await query(
      t,
      sql`select data from events where proposal_id = ${p.proposalId} and type = 'vote_cast' order by id`,
    );
    const totals = events.map((e) => (e.data as { results: { totalVotes: number } }).results.totalVotes);
    expect(totals).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});

describe.runIf(TEST_DB === 'postgres')('two server instances on one PostgreSQL', () => {
  let b: TestApp;
  let apiB: ApiClient;
  beforeAll(async () => {
    b = await startTestApp({ clock, databaseUrl: t.databaseUrl! });
    apiB = apiClient(b.url);
  });
  afterAll(() => b.close());

  it('one voter racing on both instances still gets exactly one 201', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const p = await createProposal(api, owner, dao.daoId);
    const voter = members[0]!;
    const body = {
      proposalId: p.proposalId,
      daoId: dao.daoId,
      voterAddress: voter.wallet.address,
      choice: 'For',
    };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? api : apiB).post('/votes', body, { token: voter.token })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
  });

  it('a proposal ending while both run is finalized once, with one proposal_status_changed', async () => {
    const owner = (await daoWithMembers(api, 0)).owner;
    const dao = await createDao(api, owner, { threshold: 50, quorum: 10 });
    const wallets = await walletMembers(api, owner, dao.daoId, 20);
    const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
    const bodies = await Promise.all(
      wallets.map((w, i) =>
        signedVote(
          w,
          { daoId: dao.daoId, proposalId: p.proposalId, choice: i < 12 ? 'For' : 'Against' },
          nowS(),
        ),
      ),
    );
    const statuses = await Promise.all(
      bodies.map((body, i) => (i % 2 ? api : apiB).post('/votes', body).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 201)).toBe(true);

    clock.advance(3_600_000);
    // both schedulers, and reads on both instances, race to close it
    const [ta, tb, ra, rb] = await Promise.all([
      tick(t),
      tick(b),
      api.get(`/votes/proposal/${p.proposalId}/results`),
      apiB.get(`/proposals/${p.proposalId}`),
    ]);
    expect(ta + tb).toBeLessThanOrEqual(1);
    expect(ra.body.status).toBe('PASSED');
    expect(rb.body.status).toBe('PASSED');
    const changes = await query(
      t,
      sql`select data from events where proposal_id = ${p.proposalId} and type = 'proposal_status_changed'`,
    );
    expect(changes).toHaveLength(1);
    const data = changes[0]!.data as {
      from: string;
      to: string;
      results: { totalVotes: number; passing: boolean };
    };
    expect(data).toMatchObject({ from: 'ACTIVE', to: 'PASSED', results: { totalVotes: 20, passing: true } });
    const votesAfter = await apiB.post(
      '/votes',
      await signedVote(wallets[0]!, { daoId: dao.daoId, proposalId: p.proposalId, choice: 'For' }, nowS()),
    );
    expect(votesAfter.status).toBe(409);
    expect(votesAfter.body.reason).toBe('PROPOSAL_NOT_ACTIVE');
  });
});
