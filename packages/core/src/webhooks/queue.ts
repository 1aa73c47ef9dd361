import { randomUUID } from 'node:crypto';
import { events as storedEvents, users, webhookDeliveries, webhookFeed, webhooks } from '@plenum/db';
import { and, asc, count, desc, eq, inArray, lte, max, sql } from 'drizzle-orm';
import { readEvents, readEventsByIds } from '../events/feed';
import type { EventEnvelope } from '../governance/event-log';
import { enqueueEmail } from '../mail/outbox';
import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { rowsOf } from '../shared/prepared';
import { type SendResult, sendWebhook, type WebhookAgents } from './send';
import { secretOf, webhookFor } from './subscriptions';

/** After the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/webhooks.md, "Delivery"). */
export const RETRY_DELAYS_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** a claimed row is retried after this long if its instance died while sending */
const LEASE_MS = 60_000;

type Delivery = typeof webhookDeliveries.$inferSelect;

export const serializeDelivery = (d: Delivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventType: d.eventType,
  status: d.status,
  attempt: d.attempts,
  responseStatus: d.responseStatus,
  durationMs: d.durationMs,
  responseBody: d.responseBody,
  error: d.error,
  nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
});

/**
 * Queues one delivery per matching endpoint for stored events that were committed (called by every
 * instance's event bus after delivery; the unique (webhook, event) index makes the copies one). The
 * fan-out is one statement: the events go as three arrays (ids, DAOs, types), PostgreSQL joins them to
 * the enabled webhooks, and a delivery holds the event's id, not a copy of its envelope (read when sent).
 */
export async function enqueueStoredEvents(
  svc: Pick<Services, 'db' | 'clock'>,
  events: readonly EventEnvelope[],
) {
  const withDao = events.filter((e) => e.daoId);
  if (!withDao.length) return;
  // array literals: ids are integers, DAO ids UUIDs and types event names, none needs quoting
  const literal = (xs: readonly (string | number)[]) => `{${xs.join(',')}}`;
  await svc.db.execute(sql`
    insert into webhook_deliveries (webhook_id, event_key, event_type, event_id, next_attempt_at)
    select w.id, 'event:' || e.id, e.type, e.id, ${svc.clock.now().toISOString()}::timestamptz
    from unnest(${literal(withDao.map((e) => e.id))}::bigint[], ${literal(withDao.map((e) => e.daoId!))}::uuid[],
      ${literal(withDao.map((e) => e.type))}::text[]) as e(id, dao_id, type)
    join webhooks w on w.dao_id = e.dao_id and w.enabled and e.type = any(w.events)
    on conflict (webhook_id, event_key) do nothing`);
}

/**
 * The id through which the stored stream has been queued for webhooks; the first start of a database
 * begins at its newest event (nothing before the feature existed is sent).
 */
async function queuedThrough(svc: Pick<Services, 'db'>): Promise<number> {
  const [newest] = await svc.db.select({ id: max(storedEvents.id) }).from(storedEvents);
  await svc.db
    .insert(webhookFeed)
    .values({ id: 1, queuedThrough: Number(newest?.id ?? 0) })
    .onConflictDoNothing();
  const [row] = await svc.db.select().from(webhookFeed).where(eq(webhookFeed.id, 1));
  return row?.queuedThrough ?? 0;
}

/** Queues stored events and then records how far that got (after the rows are in). */
export async function queueAndMark(svc: Pick<Services, 'db' | 'clock'>, events: readonly EventEnvelope[]) {
  await enqueueStoredEvents(svc, events);
  const through = Math.max(0, ...events.map((e) => e.id));
  if (through > 0)
    await svc.db
      .update(webhookFeed)
      .set({ queuedThrough: sql`greatest(${webhookFeed.queuedThrough}, ${through})` })
      .where(eq(webhookFeed.id, 1));
}

/**
 * At start: queues the events committed after the recorded point up to where this instance's bus
 * begins (events committed while no instance ran, or in memory when one died); later ones come from
 * the bus. Copies another instance also queued are kept once by the unique index.
 */
export async function catchUpStoredEvents(svc: Pick<Services, 'db' | 'clock'>, params: { upTo: number }) {
  let after = await queuedThrough(svc);
  while (after < params.upTo) {
    const page = await readEvents(svc, { after, upTo: params.upTo, limit: 500 });
    if (!page.length) break;
    await queueAndMark(svc, page);
    after = page[page.length - 1]!.id;
  }
}

/** A storage event of one user (docs/webhooks.md, "Subscribing"): queued for that user's storage webhooks. */
export async function enqueueStorageEvent(
  svc: Pick<Services, 'db' | 'clock'>,
  params: { userIds: string[]; type: string; data: Record<string, unknown> },
) {
  if (!params.userIds.length) return;
  const hooks = await svc.db
    .select({ id: webhooks.id, userId: webhooks.userId, events: webhooks.events })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.enabled, true),
        inArray(webhooks.userId, params.userIds),
        sql`${webhooks.daoId} is null`,
      ),
    );
  const now = svc.clock.now();
  const rows = hooks
    .filter((h) => h.events.includes(params.type))
    .map((h) => ({
      webhookId: h.id,
      eventKey: `storage:${randomUUID()}`,
      eventType: params.type,
      payload: { id: null, type: params.type, occurredAt: now.toISOString(), data: params.data },
      nextAttemptAt: now,
    }));
  if (rows.length) await svc.db.insert(webhookDeliveries).values(rows);
}

/** `POST /webhooks/{id}/test`: a `webhook.test` delivery queued now. */
export async function queueTestDelivery(svc: Services, params: { userId: string; webhookId: string }) {
  const w = await webhookFor(svc, params);
  const now = svc.clock.now();
  const [row] = await svc.db
    .insert(webhookDeliveries)
    .values({
      webhookId: w.id,
      eventKey: `test:${randomUUID()}`,
      eventType: 'webhook.test',
      payload: {
        id: null,
        type: 'webhook.test',
        daoId: w.daoId,
        occurredAt: now.toISOString(),
        data: { webhookId: w.id },
      },
      nextAttemptAt: now,
    })
    .returning();
  return serializeDelivery(row!);
}

/** A new delivery of a past one's event, attempted now with a fresh schedule. */
export async function redeliver(
  svc: Services,
  params: { userId: string; webhookId: string; deliveryId: string },
) {
  const w = await webhookFor(svc, params);
  const [old] = await svc.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, params.deliveryId), eq(webhookDeliveries.webhookId, w.id)));
  if (!old) throw notFound('Delivery not found');
  const [row] = await svc.db
    .insert(webhookDeliveries)
    .values({
      webhookId: w.id,
      eventKey: `redeliver:${randomUUID()}`,
      eventType: old.eventType,
      eventId: old.eventId,
      payload: old.payload,
      nextAttemptAt: svc.clock.now(),
    })
    .returning();
  return serializeDelivery(row!);
}

export async function listDeliveries(
  svc: Services,
  params: { userId: string; webhookId: string; page: number; limit: number },
) {
  const w = await webhookFor(svc, params);
  const where = eq(webhookDeliveries.webhookId, w.id);
  const [rows, [total]] = await Promise.all([
    svc.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(params.limit)
      .offset((params.page - 1) * params.limit),
    svc.db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    items: rows.map(serializeDelivery),
    pagination: { page: params.page, limit: params.limit, total: n, totalPages: Math.ceil(n / params.limit) },
  };
}

/**
 * Sends what is due once. A short transaction claims rows with FOR UPDATE SKIP LOCKED and moves their
 * next attempt past a lease, so two instances never send one attempt and a crash mid-send only delays
 * it; the sends run outside any transaction, at once, over the sender's kept connections; the outcomes
 * are written in one statement, each only if its row is still the claimed attempt (docs/webhooks.md,
 * "Delivery").
 */
export async function processDueDeliveries(
  svc: Services,
  params: { batch?: number; agents?: WebhookAgents } = {},
): Promise<number> {
  const now = svc.clock.now();
  const claimed = await svc.db.transaction(async (tx) => {
    const due = await tx
      .select({ d: webhookDeliveries, url: webhooks.url, secretSealed: webhooks.secretSealed })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          eq(webhooks.enabled, true),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(params.batch ?? DELIVERY_BATCH)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (due.length)
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
        .where(
          inArray(
            webhookDeliveries.id,
            due.map((r) => r.d.id),
          ),
        );
    return due;
  });
  if (!claimed.length) return 0;
  // the stored events' envelopes, read once for the pass (as the live stream sends them)
  const envelopes = new Map(
    (
      await readEventsByIds(svc, {
        ids: [...new Set(claimed.flatMap((c) => (c.d.eventId === null ? [] : [c.d.eventId])))],
      })
    ).map((e) => [e.id, e]),
  );
  // each endpoint's secret opened once per pass, not once per delivery
  const secrets = new Map<string, string>();
  const outcomes = await Promise.all(
    claimed.map(async (c): Promise<Outcome | null> => {
      try {
        let secret = secrets.get(c.d.webhookId);
        if (secret === undefined) {
          secret = secretOf(svc, c);
          secrets.set(c.d.webhookId, secret);
        }
        const at = svc.clock.now();
        const result = await sendWebhook({
          url: c.url,
          secret,
          messageId: c.d.id,
          timestamp: at,
          body: JSON.stringify(c.d.eventId === null ? c.d.payload : envelopes.get(c.d.eventId)),
          allowPrivate: svc.config.webhookAllowPrivateNetworks === true,
          agents: params.agents,
        });
        return { d: c.d, at, result };
      } catch (err) {
        // the lease brings it back (an instance without the right SECRET_KEY)
        svc.log.warn({ deliveryId: c.d.id, err: (err as Error).message }, 'a webhook attempt was not made');
        return null;
      }
    }),
  );
  try {
    await recordOutcomes(
      svc,
      outcomes.filter((o): o is Outcome => o !== null),
    );
  } catch (err) {
    // the lease brings them back: sent again later, which at least once allows
    svc.log.warn(
      { err: (err as Error).message, deliveries: claimed.length },
      'webhook attempts were not recorded',
    );
  }
  return claimed.length;
}

/** deliveries claimed by one pass */
const DELIVERY_BATCH = 100;

interface Outcome {
  d: Delivery;
  at: Date;
  result: SendResult;
}

/** the attempts of one pass written in one UPDATE … FROM (VALUES …), each only on the attempt it claimed */
async function recordOutcomes(svc: Services, outcomes: Outcome[]) {
  if (!outcomes.length) return;
  const rows = outcomes.map(({ d, at, result }) => {
    const attempts = d.attempts + 1;
    const exhausted = !result.ok && attempts >= MAX_ATTEMPTS;
    const status = result.ok ? 'succeeded' : exhausted ? 'failed' : 'pending';
    const next = result.ok || exhausted ? at : new Date(at.getTime() + RETRY_DELAYS_MS[attempts - 1]!);
    if (!result.ok)
      svc.log.info({ deliveryId: d.id, attempts, error: result.error }, 'webhook attempt failed');
    return {
      d,
      exhausted,
      values: sql`(${d.id}::uuid, ${d.attempts}::int, ${status}::text, ${attempts}::int,
      ${next.toISOString()}::timestamptz, ${result.status}::int, ${result.durationMs}::int, ${result.body}::text,
      ${result.error}::text, ${at.toISOString()}::timestamptz)`,
    };
  });
  const written = rowsOf<{ id: string }>(
    await svc.db.execute(sql`
      update webhook_deliveries as d set status = v.status, attempts = v.attempts,
        next_attempt_at = v.next_attempt_at, response_status = v.response_status, duration_ms = v.duration_ms,
        response_body = v.response_body, error = v.error, last_attempt_at = v.last_attempt_at
      from (values ${sql.join(
        rows.map((r) => r.values),
        sql`, `,
      )}) as v(id, prev_attempts, status, attempts, next_attempt_at, response_status, duration_ms,
        response_body, error, last_attempt_at)
      where d.id = v.id and d.attempts = v.prev_attempts
      returning d.id`),
  );
  const done = new Set(written.map((w) => w.id));
  for (const r of rows) if (r.exhausted && done.has(r.d.id)) await disableEndpoint(svc, r.d.webhookId);
}

/** Every attempt failed: the endpoint is switched off and its owner told, once. */
async function disableEndpoint(svc: Services, webhookId: string) {
  await svc.db.transaction(async (tx) => {
    const [w] = await tx
      .update(webhooks)
      .set({ enabled: false, disabledAt: svc.clock.now(), updatedAt: sql`now()` })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.enabled, true)))
      .returning({ url: webhooks.url, userId: webhooks.userId });
    if (!w) return;
    const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, w.userId));
    if (!owner) return;
    const text = `Every attempt to deliver an event to your webhook ${w.url} failed for more than a day, so Plenum has disabled it. Fix the endpoint, then enable the webhook again (PATCH /webhooks/${webhookId} with {"enabled": true}); its failed deliveries can be sent again from the delivery list.`;
    await enqueueEmail(tx, {
      to: owner.email,
      subject: 'Your Plenum webhook was disabled',
      text,
      html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
    });
  });
}
