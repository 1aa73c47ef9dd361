import { mkdir } from 'node:fs/promises';
import type { ApiServices } from '@plenum/api';
import {
  applyAdminEmails,
  avatarDir,
  type Clock,
  createCoreServices,
  createStorageRuntime,
  EventBus,
  isClosedStatus,
  type Logger,
  RecordPublisher,
  recordAttestor,
  requeuePendingPins,
  StatusScheduler,
  startBlockPrivacy,
  startPinVerifier,
} from '@plenum/core';
import { createDb, type DbHandle, type PoolUse } from '@plenum/db';
import { coreConfigFromEnv } from './config';
import type { Env } from './env';
import { SocketCorker } from './events/cork';
import { RequestLoad } from './http/request-load';
import { sweepStaleParts } from './routes/users/stale-parts';
import { VERSION } from './version';
import { startActivitySweeper } from './workers/activity-sweep';
import { resendTransport, startMailWorker } from './workers/mail';
import { startWebhookWorker } from './workers/webhooks';

/**
 * The service container (docs/architecture.md): built once at start-up, typed, handed to every
 * procedure, plain route and worker; its core part (with the state core keeps) from createCoreServices.
 * Also starts this instance's background work: the proposal status scheduler and the vote batcher's
 * writer pool (governance), the event bus (live events), the IPFS node and pin verifier (storage), the
 * mail outbox worker; `stop` ends it in the reverse order, committing queued votes first.
 */
export async function createServices(env: Env, dbHandle: DbHandle, options: { clock: Clock; log: Logger }) {
  const { log } = options;
  const corker = new SocketCorker();
  const events = new EventBus(dbHandle.db, dbHandle, log.child({ component: 'events' }), {
    aroundDelivery: (deliver) => corker.corked(deliver),
    revalidateMs: env.EVENTS_REVALIDATE_MS,
    limits: {
      perConnection: env.EVENTS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      perUser: env.EVENTS_MAX_STREAMS_PER_USER,
    },
    replayConcurrency: env.EVENTS_REPLAY_CONCURRENCY,
  });
  const storage = await createStorageRuntime({
    dataDir: env.dataDir,
    apiUrl: env.IPFS_API_URL,
    nodeUrl: env.IPFS_NODE_URL,
    gatewayUrls: env.IPFS_GATEWAY_URLS,
    timeoutMs: env.IPFS_TIMEOUT,
    swarm: env.ipfsSwarm,
    notice: (message) => log.warn(message),
  });
  const network = storage.node.network?.();
  if (network) log.info(network, 'the embedded IPFS node is on the network');

  // governance: on PostgreSQL the vote batcher gets its own small pool, so a batch commit never waits
  // behind request reads
  const writer = env.DATABASE_URL
    ? await createDb({
        databaseUrl: env.DATABASE_URL,
        maxConnections: 4,
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT,
        acquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT,
      })
    : null;
  const core = createCoreServices(
    { db: dbHandle.db, config: coreConfigFromEnv(env), clock: options.clock, log },
    {
      writer: writer?.db,
      // on PostgreSQL a vote answers within the database deadlines (docs/operations.md, "Database outages")
      voteDeadlineMs:
        writer && env.DATABASE_STATEMENT_TIMEOUT
          ? env.DATABASE_ACQUIRE_TIMEOUT + 2 * env.DATABASE_STATEMENT_TIMEOUT
          : 0,
    },
  );
  const svc: ApiServices = {
    ...core,
    emailProviderConfigured: Boolean(env.RESEND_API_KEY),
    version: VERSION,
    storage,
    events,
  };
  await applyAdminEmails(svc);
  await events.start();

  // governance: every instance runs a scheduler (row locks make each step happen once)
  const scheduler = new StatusScheduler(svc);
  scheduler.start();

  // storage: pins left pinning by the last run are queued again
  const storageSvc = { ...svc, storage };
  const stopVerifier = startPinVerifier(storageSvc);
  // the embedded node's guard learns which blocks are not for peers (docs/storage.md); in the background
  void startBlockPrivacy(storageSvc).catch((err: unknown) => log.error({ err }, 'block privacy failed'));
  const requeued = await requeuePendingPins(storageSvc);
  if (requeued) log.info({ requeued }, 'pins left pinning by the last run were queued again');

  // users: the avatar directory, without partial uploads a crash left behind
  const avatars = avatarDir(svc);
  await mkdir(avatars, { recursive: true });
  await sweepStaleParts(avatars, svc.clock.now().getTime(), log);

  // governance: closed proposals' records stored and pinned on the IPFS node (docs/governance.md,
  // "Publishing"), at once when a proposal closes on any instance, and every few seconds for retries
  const recordPublisher = new RecordPublisher(storageSvc, {
    node: storage.node,
    attest: recordAttestor(svc.config.secretKey()),
  });
  recordPublisher.start();
  const stopRecordNudges = events.observeDelivery((delivered) => {
    for (const e of delivered)
      if (e.type === 'proposal_status_changed' && isClosedStatus(String(e.data.to))) {
        recordPublisher.nudge();
        return;
      }
  });

  const mailWorker = startMailWorker(svc, env.RESEND_API_KEY ? resendTransport(env.RESEND_API_KEY) : null);
  const activitySweeper = startActivitySweeper(svc);
  // requests answered, counted by the pipeline: the webhook sender yields to them
  const requestLoad = new RequestLoad();
  const webhookWorker = startWebhookWorker(svc, { bus: events, storage: storage.events, load: requestLoad });

  // the connection pools by name, for /metrics: requests and workers; the vote writer on PostgreSQL
  const pools: Record<string, PoolUse> = { main: dbHandle.pool, ...(writer ? { votes: writer.pool } : {}) };

  const quietly = (what: string) => (err: unknown) => log.warn({ err }, `stopping ${what} failed`);
  return {
    svc,
    events,
    corker,
    scheduler,
    mailWorker,
    webhookWorker,
    requestLoad,
    /** closed proposals' records to IPFS (tests stop it to drive publishing themselves) */
    recordPublisher,
    /** svc.governance: its vote batcher reports to /metrics */
    governance: svc.governance,
    pools,
    async stop() {
      await webhookWorker.stop();
      await mailWorker.stop();
      await activitySweeper.stop();
      stopRecordNudges();
      await recordPublisher.stop();
      stopVerifier();
      svc.storage = null;
      await storage.stop().catch(quietly('storage'));
      await scheduler.stop().catch(quietly('the scheduler'));
      await svc.governance.batcher.flush().catch(quietly('the vote batcher'));
      await writer?.close().catch(quietly('the writer pool'));
      await events.stop().catch(quietly('events'));
    },
  };
}

export type PlenumServices = Awaited<ReturnType<typeof createServices>>;
