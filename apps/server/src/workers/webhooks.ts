import {
  catchUpStoredEvents,
  type EventBus,
  type EventEnvelope,
  enqueueStorageEvent,
  processDueDeliveries,
  queueAndMark,
  type Services,
  WebhookAgents,
} from '@plenum/core';
import { pins } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import type { RequestLoad } from '../http/request-load';

/**
 * While the instance answers more than BUSY_RPS requests a second, a pass of deliveries is followed by
 * YIELD_MS of rest: up to 100 deliveries per YIELD_MS, the rest of the event loop left to the requests
 * (docs/webhooks.md, "Speed"). When requests are fewer, passes follow each other at once.
 */
const BUSY_RPS = 100;
const YIELD_MS = 500;

type StorageSource = {
  on(
    name: 'ipfs:pin.verified' | 'ipfs:pin.failed',
    fn: (e: { cid: string; owner: string } & Record<string, unknown>) => void,
  ): () => void;
};

/**
 * Outbound webhooks (docs/webhooks.md, "Delivery"). The event bus hands every committed event to an
 * observer after delivery; they are queued in batches, off the vote path and outside its transaction
 * (every instance queues them, one row per event, kept once by its id). A poll sends what is due from the
 * shared tables.
 */
export function startWebhookWorker(
  svc: Services,
  params: { bus: EventBus; storage: StorageSource | null; load?: RequestLoad; intervalMs?: number },
) {
  let stopped = false;
  let pending: EventEnvelope[] = [];
  let flushing: Promise<void> | null = null;
  let sending: Promise<void> | null = null;
  // kept connections to the endpoints, for this worker's life
  const agents = new WebhookAgents();
  // the endpoints per event of the last pass: how many events the next pass claims
  const pace = { fanOut: 1 };

  const flush = async () => {
    while (pending.length && !stopped) {
      const batch = pending;
      pending = [];
      try {
        await queueAndMark(svc, batch);
      } catch (err) {
        // kept for the next try: the database may be back in a moment
        pending = [...batch, ...pending];
        svc.log.warn({ err: (err as Error).message }, 'queueing webhook deliveries failed');
        await new Promise((r) => setTimeout(r, 1000).unref());
      }
    }
    flushing = null;
    void tick();
  };
  const offBus = params.bus.observeDelivery((events) => {
    pending.push(...events);
    flushing ??= flush();
  });
  // what was committed while no instance queued it (the observer is on first, so nothing falls between)
  const caughtUp = catchUpStoredEvents(svc, { upTo: params.bus.cursor })
    .then(() => tick())
    .catch((err: unknown) =>
      svc.log.warn({ err: (err as Error).message }, 'catching up webhook deliveries failed'),
    );

  const offStorage = (['ipfs:pin.verified', 'ipfs:pin.failed'] as const).map((type) =>
    params.storage?.on(type, ({ owner, ...data }) => {
      void svc.db
        .select({ userId: pins.userId })
        .from(pins)
        .where(and(eq(pins.cid, data.cid), eq(pins.owner, owner)))
        .then((rows) =>
          enqueueStorageEvent(svc, {
            userIds: [...new Set(rows.map((r) => r.userId))],
            type,
            data: { ...data, owner },
          }),
        )
        .then(() => tick())
        .catch((err: unknown) =>
          svc.log.warn({ err: (err as Error).message }, 'queueing a storage webhook failed'),
        );
    }),
  );

  /** one pass over what is due; a call while a pass runs waits for that pass */
  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    sending ??= (async () => {
      try {
        let since = params.load?.snapshot();
        while (!stopped && (await processDueDeliveries(svc, { agents, pace })) > 0) {
          // drain what is due, yielding to requests while they come fast
          if (params.load && since && params.load.rateSince(since) > BUSY_RPS)
            await new Promise((r) => setTimeout(r, YIELD_MS).unref());
          since = params.load?.snapshot();
        }
      } catch (err) {
        svc.log.warn({ err: (err as Error).message }, 'webhook worker tick failed');
      } finally {
        sending = null;
      }
    })();
    return sending;
  };
  const timer = setInterval(tick, params.intervalMs ?? 1000);
  timer.unref();
  void tick();
  return {
    tick,
    /** resolves when the events handed over so far are queued */
    async flushed() {
      await caughtUp;
      while (flushing) await flushing;
    },
    async stop() {
      stopped = true;
      offBus();
      await caughtUp;
      for (const off of offStorage) off?.();
      clearInterval(timer);
      while (sending || flushing) await new Promise((r) => setTimeout(r, 20));
      agents.close();
    },
  };
}
