import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser } from './support/factories';
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
