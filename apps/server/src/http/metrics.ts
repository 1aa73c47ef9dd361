import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { ApiServices } from '@plenum/api';
import { AppError, type EventEnvelope, type GovernanceRuntime } from '@plenum/core';
import { type Availability, emailOutbox, type PoolUse } from '@plenum/db';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyRequest {
    /** the route as a bounded label: a path template, `/trpc/<procedure>` or `unmatched` */
    metricsRoute: string | null;
  }
}

export interface MetricsSources {
  svc: ApiServices;
  availability: Availability;
  /** open WebSocket connections by transport */
  connections: () => { trpc: number; socketIo: number };
  /** the vote batcher (group commits) */
  votes: Pick<GovernanceRuntime['batcher'], 'observe'>;
  /** the event bus (live delivery) */
  events: { observeDelivery(observer: (events: readonly EventEnvelope[]) => void): () => void };
  /** connection pools by name (`main`, `votes`) */
  pools: Record<string, PoolUse>;
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The instance's metrics in Prometheus' text format (docs/operations.md, "Metrics"), from prom-client:
 * HTTP requests by route, method and status with a latency histogram; open WebSocket and Socket.IO
 * connections; the mail outbox backlog; the pin verification queue; database availability and pool use;
 * vote group commits (batch size, commit time, each vote's wait); the delivery lag of live events; and
 * Node's own process figures. One registry per app, so several apps in one process (tests) never mix.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'plenum_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'plenum_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'plenum_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route template and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });

  // governance: the vote batcher reports once per batch, and each vote's wait as a plain number
  const batchSize = new Histogram({
    name: 'plenum_vote_batch_size',
    help: 'Votes per group commit of the vote batcher (one transaction), counted or refused',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
    registers: [registry],
  });
  const commitSeconds = new Histogram({
    name: 'plenum_vote_commit_duration_seconds',
    help: 'Seconds from the start of a vote batch commit (writer connection wait and retries included) to its durable commit (outcome committed) or final failure (outcome failed)',
    labelNames: ['outcome'],
    buckets: SECONDS,
    registers: [registry],
  });
  // both series exist from the start (a failure rate needs its zero)
  commitSeconds.zero({ outcome: 'committed' });
  commitSeconds.zero({ outcome: 'failed' });
  const committed = commitSeconds.labels({ outcome: 'committed' });
  const failed = commitSeconds.labels({ outcome: 'failed' });
  const voteSeconds = new Histogram({
    name: 'plenum_vote_ack_duration_seconds',
    help: 'Per vote: seconds from joining the vote batcher queue to its answer (after the batch commit or failure)',
    buckets: SECONDS,
    registers: [registry],
  });
  sources.votes.observe({
    onBatch(batch) {
      batchSize.observe(batch.size);
      (batch.committed ? committed : failed).observe(batch.seconds);
    },
    onVote(seconds) {
      voteSeconds.observe(seconds);
    },
  });

  // events: how long after its creation this instance hands an event to its live subscribers
  const lag = new Histogram({
    name: 'plenum_event_delivery_lag_seconds',
    help: "Seconds from an event's occurredAt (its writer's clock, before its transaction committed) to this instance handing it to its live subscribers; once per event and instance",
    buckets: [...SECONDS, 30, 60],
    registers: [registry],
  });
  sources.events.observeDelivery((events) => {
    const now = sources.svc.clock.now().getTime();
    // another instance's clock may run slightly ahead: a negative lag counts as 0
    for (const e of events) lag.observe(Math.max(0, now - Date.parse(e.occurredAt)) / 1000);
  });

  // database: each pool's size and the app's use of it (docs/operations.md, "Metrics": what is counted)
  const poolGauge = (name: string, help: string, value: (p: PoolUse) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        for (const [pool, use] of Object.entries(sources.pools)) this.set({ pool }, value(use));
      },
    });
  poolGauge(
    'plenum_db_pool_size',
    'Connections the database pool may open (PGlite: 1), by pool (main: requests and workers; votes: the vote writer)',
    (p) => p.size,
  );
  poolGauge(
    'plenum_db_pool_in_use',
    "Pool connections busy with the app's statements, transactions and reserved connections, by pool",
    (p) => p.inUse,
  );
  poolGauge(
    'plenum_db_pool_waiting',
    'Statements and transactions of the app waiting for a pool connection (beyond the pool size), by pool',
    (p) => p.waiting,
  );
  new Gauge({
    name: 'plenum_open_connections',
    help: 'Open WebSocket connections by transport (tRPC subscriptions, Socket.IO)',
    labelNames: ['transport'],
    registers: [registry],
    collect() {
      const c = sources.connections();
      this.set({ transport: 'trpc' }, c.trpc);
      this.set({ transport: 'socket.io' }, c.socketIo);
    },
  });
  new Gauge({
    name: 'plenum_mail_outbox_backlog',
    help: 'Mails waiting in the outbox (pending delivery or retry)',
    registers: [registry],
    async collect() {
      if (!sources.availability.up) return;
      const [row] = await sources.svc.db
        .select({ n: count() })
        .from(emailOutbox)
        .where(eq(emailOutbox.status, 'pending'))
        .catch(() => [undefined]);
      if (row) this.set(row.n);
    },
  });
  new Gauge({
    name: 'plenum_pin_verification_queue',
    help: 'Pins being fetched and verified in the background by this instance',
    registers: [registry],
    collect() {
      this.set(sources.svc.storage?.pending.size ?? 0);
    },
  });
  new Gauge({
    name: 'plenum_database_up',
    help: '1 while the database answers, 0 during an outage',
    registers: [registry],
    collect() {
      this.set(sources.availability.up ? 1 : 0);
    },
  });

  return {
    registry,
    observe(request: FastifyRequest, status: number, seconds: number) {
      const labels = { method: request.method, route: request.metricsRoute ?? 'unmatched', status };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** GET /metrics on the API port, to the bearer of METRICS_TOKEN only */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string) {
  app.get('/metrics', { config: { system: true } }, async (request, reply) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token)) {
      reply.header('WWW-Authenticate', 'Bearer');
      throw new AppError('UNAUTHORIZED', 'The metrics token is required', {
        reason: 'METRICS_TOKEN_REQUIRED',
      });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** /metrics on its own port (an internal interface, no credentials): anything else is a 404 */
export function metricsServer(metrics: Metrics): Server {
  return createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
}
