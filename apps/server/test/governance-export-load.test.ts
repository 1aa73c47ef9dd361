import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { createDao, createProposal } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Vote exports under load (docs/governance.md, "Exporting the votes"): clients that read an export slowly
 * hold no database connection (no transaction idle while they wait), exports beyond the caps (per
 * instance, per client IP) are refused with 429 EXPORTS_BUSY and Retry-After, and meanwhile the rest of
 * the API and /health, /ready answer. The pool is small (4) and the held exports outnumber it.
 */

const POOL = 4;
const MAX = 6;
const PER_CLIENT = 2;

let t: TestApp;
let api: ApiClient;
let proposalId: string;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      DATABASE_POOL_SIZE: String(POOL),
      EXPORT_MAX_CONCURRENT: String(MAX),
      EXPORT_MAX_PER_CLIENT: String(PER_CLIENT),
      // the client IP from X-Forwarded-For, so one test process can be many clients
      TRUST_PROXY: 'true',
    },
  });
  api = apiClient(t.url);
  const owner = await memberUser(api);
  const dao = await createDao(api, owner);
  proposalId = (await createProposal(api, owner, dao.daoId)).proposalId;
  // ~20 MB of CSV: far more than the socket buffers hold, so a client that stops reading holds the export
  await t.app.dbHandle.db.execute(
    sql.raw(`insert into votes (proposal_id, dao_id, voter_address, choice, weight, comment, created_at, updated_at)
      select '${proposalId}', '${dao.daoId}', '0x9' || lpad(k::text, 39, '0'), 'For', 1,
        rpad('vote ' || k, 1000, '.'), now() - interval '1 hour' + k * interval '1 millisecond',
        now() - interval '1 hour'
      from generate_series(1, 20000) k`),
  );
});
afterAll(() => t?.close());

interface SlowReader {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** resolves with the error body of a refusal, or once the first bytes of an export arrived */
  first: Promise<string>;
  destroy(): void;
}

/** an export read by a client that takes its first bytes and then reads nothing more */
async function slowReader(ip: string): Promise<SlowReader> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(
      `${t.url}/votes/proposal/${proposalId}/export?format=csv`,
      { headers: { 'x-forwarded-for': ip } },
      resolve,
    );
    req.on('error', reject);
  });
  res.setEncoding('utf8');
  const first = new Promise<string>((resolve) => {
    if (res.statusCode !== 200) {
      let text = '';
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve(text));
      return;
    }
    res.once('data', (chunk: string) => {
      res.pause();
      resolve(chunk);
    });
  });
  res.on('error', () => {});
  return { status: res.statusCode!, headers: res.headers, first, destroy: () => res.destroy() };
}

/** connections of the test database idle in a transaction (PostgreSQL) */
async function idleInTransaction(): Promise<number> {
  const rows = await t.app.dbHandle.db.execute(
    sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`,
  );
  return (Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows)[0]!.n as number;
}

/** a request that must answer, with a generous deadline: its status, or 'no answer' */
const answer = (path: string) =>
  fetch(`${t.url}${path}`, { signal: AbortSignal.timeout(30_000) }).then(
    async (r) => {
      await r.arrayBuffer();
      return r.status;
    },
    () => 'no answer',
  );

async function until(condition: () => boolean | Promise<boolean>) {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 20));
}

describe('vote exports read slowly by more clients than the pool has connections', () => {
  it('hold no connection, are capped per instance and per client (429), and never starve the API', async () => {
    const readers: SlowReader[] = [];
    try {
      // the same client twice, then other clients up to the instance's cap
      const ips = ['10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5'];
      for (const ip of ips) readers.push(await slowReader(ip));
      expect(readers.map((r) => r.status)).toEqual(ips.map(() => 200));
      await Promise.all(readers.map((r) => r.first));

      // every export has begun and waits for its client: no connection is held for it. Polled: a
      // background job's transaction (the mail worker, the scheduler) may be caught between two of its
      // statements for a moment, while an export held at its client's pace would stay there
      if (TEST_DB === 'postgres') await expect.poll(idleInTransaction, { timeout: 10_000 }).toBe(0);

      // the same client a third time, and (at the instance's cap) new clients at once: all refused
      const refused = await Promise.all([
        slowReader('10.0.0.1'),
        ...Array.from({ length: 10 }, (_, i) => slowReader(`10.0.1.${i + 1}`)),
      ]);
      const bodies = await Promise.all(refused.map((r) => r.first));
      expect(refused.map((r) => r.status)).toEqual(refused.map(() => 429));
      for (const [i, r] of refused.entries()) {
        expect(r.headers['retry-after']).toBe('5');
        expect(JSON.parse(bodies[i]!)).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'EXPORTS_BUSY' });
      }
      expect(JSON.parse(bodies[0]!).message).toMatch(/per client/);

      // bystanders answer while the exports hang
      const bystanders = await Promise.all([
        ...Array.from({ length: 10 }, () => answer('/daos')),
        answer('/health'),
        answer('/ready'),
      ]);
      expect(bystanders).toEqual(bystanders.map(() => 200));
      if (TEST_DB === 'postgres') await expect.poll(idleInTransaction, { timeout: 10_000 }).toBe(0);
      // HEAD reads no vote and takes no slot
      const head = await fetch(`${t.url}/votes/proposal/${proposalId}/export?format=csv`, {
        method: 'HEAD',
        headers: { 'x-forwarded-for': '10.0.0.1' },
      });
      expect(head.status).toBe(200);
    } finally {
      for (const r of readers) r.destroy();
    }
    // the slots come back when their clients go away: the same client is served again
    let again: SlowReader | null = null;
    await until(async () => {
      again?.destroy();
      again = await slowReader('10.0.0.1');
      return again.status === 200;
    });
    (again as SlowReader | null)?.destroy();
  }, 120_000);
});
