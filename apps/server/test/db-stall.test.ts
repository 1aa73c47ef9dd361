import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, TEST_DB, type TestApp } from './support/app';
import { type DbProxy, startDbProxy } from './support/db-proxy';
import { proposalWithBallots } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * The database stops answering without closing anything (a SIGSTOPped PostgreSQL, a partition that drops
 * packets): requests in flight answer 503 with Retry-After within the documented bound instead of waiting
 * for the whole freeze, and once it answers again every vote counted exactly as its answers say: a 503 is
 * "maybe", and sending the same ballot again tells (201: it had not counted; 409 ALREADY_VOTED: it had)
 * (docs/operations.md, "Database outages"). Deadlines of one second; the test's own deadlines are 30 s.
 */
describe.runIf(TEST_DB === 'postgres')('with the database stalled', () => {
  let proxy: DbProxy;
  let t: TestApp;
  let api: ApiClient;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    proxy = await startDbProxy(db.url!);
    t = await startTestApp({
      databaseUrl: proxy.url,
      env: { DATABASE_STATEMENT_TIMEOUT: '1s', DATABASE_ACQUIRE_TIMEOUT: '1s' },
    });
    api = apiClient(t.url);
  });
  afterAll(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.close();
    await drop?.();
  });

  /** a request's status and Retry-After, or 'no answer' after 30 s */
  const answer = (path: string, init: RequestInit = {}) =>
    fetch(`${t.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) }).then(
      async (r) => ({
        status: r.status as number | 'no answer',
        retryAfter: r.headers.get('retry-after'),
        body: (await r.json().catch(() => null)) as { reason?: string } | null,
      }),
      () => ({ status: 'no answer' as const, retryAfter: null, body: null }),
    );
  const post = (path: string, body: unknown) =>
    answer(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers votes and reads in flight with 503 and Retry-After; afterwards the votes count as answered', async () => {
    const { proposal, ballots } = await proposalWithBallots(api, 12);
    // two votes before the stall, answered 201: counted whatever happens next
    const before = await Promise.all(ballots.slice(0, 2).map((b) => post('/votes', b)));
    expect(before.map((a) => a.status)).toEqual([201, 201]);
    expect((await answer('/daos')).status).toBe(200);

    proxy.stall();
    const during = await Promise.all([
      ...ballots.slice(2).map((b) => post('/votes', b)),
      answer('/daos'),
      answer('/daos'),
      answer(`/votes/proposal/${proposal.proposalId}`),
    ]);
    // every request answered (none waited for the end of the stall), none acknowledged a vote it could
    // not have committed
    for (const a of during) {
      expect(a.status).toBe(503);
      expect(a.retryAfter).toBe('1');
      expect(a.body?.reason).toBe('DATABASE_UNAVAILABLE');
    }
    expect((await answer('/health')).status).toBe(503);

    proxy.resume();
    // wait for the database to answer again
    for (;;) {
      if ((await answer('/health')).status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    // the same ballots again: 201 if the first attempt had not counted, 409 ALREADY_VOTED if it had
    const retries = await Promise.all(ballots.slice(2).map((b) => post('/votes', b)));
    for (const r of retries) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 409) expect(r.body?.reason).toBe('ALREADY_VOTED');
    }
    const rows = await t.app.dbHandle.db.execute(
      sql`select count(*)::int as n from votes where proposal_id = ${proposal.proposalId}`,
    );
    const stored = ((Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows)[0] as { n: number }).n;
    // every ballot counted exactly once: the two acknowledged before, each stalled one once
    expect(stored).toBe(ballots.length);
    const results = await api.get(`/votes/proposal/${proposal.proposalId}/results`);
    expect(results.status).toBe(200);
    expect(results.body.totalVotes).toBe(ballots.length);
  });
});
