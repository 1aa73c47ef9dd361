import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { trpcSubscriber, until } from './support/events';
import { activeUser } from './support/factories';
import { proposalWithBallots } from './support/governance';
import { apiClient } from './support/http';

const TOKEN = 'metrics-token-for-the-test-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, one sample per line (`name{a="b",…} value`), comments skipped */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** the value of the one sample with this name and these labels (others may differ) */
const sampleOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe('readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is ready with every check named, then 503 once the instance drains while /health stays 200', async () => {
    const ready = await fetch(`${t.url}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', storage: 'ok', shutdown: false },
    });

    t.app.drain();
    const draining = await fetch(`${t.url}/ready`);
    expect(draining.status).toBe(503);
    expect(draining.headers.get('retry-after')).toBe('1');
    expect(await draining.json()).toMatchObject({ status: 'not_ready', checks: { shutdown: true } });
    // liveness is not readiness: the instance still serves
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
    expect((await fetch(`${t.url}/daos`)).status).toBe(200);
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('refuses a scrape without the token or with another one', async () => {
    const none = await fetch(`${t.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await none.json()).reason).toBe('METRICS_TOKEN_REQUIRED');
    const wrong = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
  });

  it('counts requests by route template, method and status, never by raw path', async () => {
    const api = apiClient(t.url);
    for (let i = 0; i < 3; i++) expect((await api.get('/daos')).status).toBe(200);
    const missing = randomUUID();
    expect((await api.get(`/daos/${missing}`)).status).toBe(404);
    await activeUser(api); // registration queues a verification mail
    expect((await fetch(`${t.url}/trpc/system.nope`)).status).toBe(404);

    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const samples = parseMetrics(text);
    const total = (route: string, status: string) =>
      samples.find(
        (s) =>
          s.name === 'plenum_http_requests_total' &&
          s.labels.route === route &&
          s.labels.method === 'GET' &&
          s.labels.status === status,
      )?.value;
    expect(total('/daos', '200')).toBe(3);
    expect(total('/daos/{daoId}', '404')).toBe(1);
    expect(total('unmatched', '404')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(missing);
    expect(text).not.toContain('system.nope');
    const histogram = samples.find(
      (s) =>
        s.name === 'plenum_http_request_duration_seconds_count' &&
        s.labels.route === '/daos' &&
        s.labels.status === '200',
    );
    expect(histogram?.value).toBe(3);
    const one = (name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    expect(one('plenum_open_connections', { transport: 'trpc' })?.value).toBe(0);
    expect(one('plenum_open_connections', { transport: 'socket.io' })?.value).toBe(0);
    expect(one('plenum_mail_outbox_backlog')?.value).toBeGreaterThanOrEqual(0);
    expect(one('plenum_pin_verification_queue')?.value).toBe(0);
    expect(one('plenum_database_up')?.value).toBe(1);
    expect(one('plenum_process_resident_memory_bytes')?.value).toBeGreaterThan(0);
  });
});

describe('metrics on METRICS_PORT', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp({ env: { METRICS_PORT: String(port) } });
  });
  afterAll(() => t.close());

  it('serves /metrics on the internal port only, with no credentials', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(parseMetrics(await res.text()).some((s) => s.name === 'plenum_database_up')).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(404);
    // not on the API port: there it would need METRICS_TOKEN, which is not set
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
  });
});

/** whether a TCP connection to host:port is accepted */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, host);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

describe('the METRICS_PORT listener is on METRICS_HOST only', () => {
  // 127.0.0.2 is another loopback address (Linux answers the whole 127/8): a listener bound to 127.0.0.1
  // refuses it, one bound to every interface accepts it
  it('by default loopback (127.0.0.1), even when the API listens on every interface', async () => {
    const port = await freePort();
    const t = await startTestApp({ env: { METRICS_PORT: String(port) }, host: '0.0.0.0' });
    try {
      const api = Number(new URL(t.url).port);
      expect(await accepts('127.0.0.2', api)).toBe(true); // the API: every interface
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
      expect(await accepts('127.0.0.2', port)).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('on the address METRICS_HOST names', async () => {
    const port = await freePort();
    const t = await startTestApp({ env: { METRICS_PORT: String(port), METRICS_HOST: '127.0.0.2' } });
    try {
      expect((await fetch(`http://127.0.0.2:${port}/metrics`)).status).toBe(200);
      expect(await accepts('127.0.0.1', port)).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('metrics of vote batches, live event delivery and the database pools', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return parseMetrics(await res.text());
  };
  const pools = TEST_DB === 'postgres' ? { main: 20, votes: 4 } : { main: 1 };

  it('counts every vote in exactly one group commit and every delivered event once, with plausible times', async () => {
    const api = apiClient(t.url);
    const watcher = await activeUser(api);
    const before = await scrape();
    expect(sampleOf(before, 'plenum_vote_batch_size_count')).toBe(0);
    expect(sampleOf(before, 'plenum_vote_ack_duration_seconds_count')).toBe(0);
    const lagBefore = sampleOf(before, 'plenum_event_delivery_lag_seconds_count');
    expect(lagBefore).toBeTypeOf('number');

    // a live subscriber to every event, then a DAO, a proposal and 24 votes cast at once
    const sub = trpcSubscriber(t, watcher.token);
    try {
      await until(() => t.app.events.subscriptions.length === 1, 'the live subscription');
      const votes = 24;
      const { dao, ballots } = await proposalWithBallots(api, votes);
      const statuses = await Promise.all(ballots.map((b) => api.post('/votes', b).then((r) => r.status)));
      expect(statuses).toEqual(ballots.map(() => 201));
      // dao_created, proposal_submitted and one vote_cast per vote
      const delivered = 2 + votes;
      const got = await sub.waitFor(delivered);
      expect(got.every((e) => e.daoId === dao.daoId)).toBe(true);

      const after = await scrape();
      const batches = sampleOf(after, 'plenum_vote_batch_size_count')!;
      expect(sampleOf(after, 'plenum_vote_batch_size_sum')).toBe(votes);
      expect(batches).toBeGreaterThanOrEqual(1);
      expect(batches).toBeLessThanOrEqual(votes);
      expect(sampleOf(after, 'plenum_vote_batch_size_bucket', { le: '+Inf' })).toBe(batches);
      expect(sampleOf(after, 'plenum_vote_batch_size_bucket', { le: '1000' })).toBe(batches);
      // one commit time per batch, all committed
      const commits = { outcome: 'committed' };
      expect(sampleOf(after, 'plenum_vote_commit_duration_seconds_count', commits)).toBe(batches);
      expect(sampleOf(after, 'plenum_vote_commit_duration_seconds_count', { outcome: 'failed' })).toBe(0);
      const commitSum = sampleOf(after, 'plenum_vote_commit_duration_seconds_sum', commits)!;
      expect(commitSum).toBeGreaterThan(0);
      // each vote waits at least its batch's commit: the sum over votes is at least the sum over batches
      expect(sampleOf(after, 'plenum_vote_ack_duration_seconds_count')).toBe(votes);
      expect(sampleOf(after, 'plenum_vote_ack_duration_seconds_sum')).toBeGreaterThanOrEqual(commitSum);

      // one observation per event this instance delivered (not per subscriber), each lag non-negative
      const lagCount = sampleOf(after, 'plenum_event_delivery_lag_seconds_count')! - lagBefore!;
      expect(lagCount).toBeGreaterThanOrEqual(delivered);
      expect(sampleOf(after, 'plenum_event_delivery_lag_seconds_sum')).toBeGreaterThanOrEqual(0);
      const lagTotal = sampleOf(after, 'plenum_event_delivery_lag_seconds_count')!;
      expect(sampleOf(after, 'plenum_event_delivery_lag_seconds_bucket', { le: '60' })).toBe(lagTotal);

      // a second subscriber to every event does not double the observations
      const second = trpcSubscriber(t, watcher.token);
      try {
        await until(() => t.app.events.subscriptions.length === 2, 'the second subscription');
        const { ballots: more } = await proposalWithBallots(api, 1);
        expect((await api.post('/votes', more[0])).status).toBe(201);
        await sub.waitFor(delivered + 3);
        await second.waitFor(3);
        const last = await scrape();
        expect(sampleOf(last, 'plenum_event_delivery_lag_seconds_count')).toBe(lagTotal + 3);
        expect(sampleOf(last, 'plenum_vote_batch_size_sum')).toBe(votes + 1);
      } finally {
        second.close();
      }
    } finally {
      sub.close();
    }
  });

  it('reports each pool with its size, connections in use and work waiting', async () => {
    const samples = await scrape();
    for (const [pool, size] of Object.entries(pools)) {
      expect(sampleOf(samples, 'plenum_db_pool_size', { pool })).toBe(size);
      const inUse = sampleOf(samples, 'plenum_db_pool_in_use', { pool })!;
      expect(inUse).toBeGreaterThanOrEqual(0);
      expect(inUse).toBeLessThanOrEqual(size);
      expect(sampleOf(samples, 'plenum_db_pool_waiting', { pool })).toBeGreaterThanOrEqual(0);
    }
    expect(samples.filter((s) => s.name === 'plenum_db_pool_size')).toHaveLength(Object.keys(pools).length);

    // a transaction holding its connection is in use; on PGlite's one connection a statement waits for it
    const db = t.app.svc.db;
    let release = () => {};
    let entered = () => {};
    const inside = new Promise<void>((r) => (entered = r));
    const held = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      entered();
      await new Promise<void>((r) => (release = r));
    });
    let queued: Promise<unknown> | null = null;
    try {
      await inside;
      if (TEST_DB === 'pglite') {
        queued = Promise.resolve(db.execute(sql`select 1`));
        await until(() => t.app.dbHandle.pool.waiting >= 1, 'a statement waiting for the connection');
      }
      // read without a scrape: the outbox gauge's query would wait for this very transaction on PGlite
      const gauges = parseMetrics(
        (
          await Promise.all(
            ['plenum_db_pool_size', 'plenum_db_pool_in_use', 'plenum_db_pool_waiting'].map((name) =>
              t.app.metrics.registry.getSingleMetricAsString(name),
            ),
          )
        ).join('\n'),
      );
      const main = { pool: 'main' };
      const inUse = sampleOf(gauges, 'plenum_db_pool_in_use', main)!;
      expect(inUse).toBeGreaterThanOrEqual(1);
      expect(inUse).toBeLessThanOrEqual(sampleOf(gauges, 'plenum_db_pool_size', main)!);
      if (TEST_DB === 'pglite') {
        expect(inUse).toBe(1);
        expect(sampleOf(gauges, 'plenum_db_pool_waiting', main)).toBeGreaterThanOrEqual(1);
      }
    } finally {
      release();
      await held;
      await queued;
    }
  });
});
