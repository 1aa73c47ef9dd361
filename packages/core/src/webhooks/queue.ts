import { users, webhookDeliveries, webhooks } from '@plenum/db';
import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { readEventsByIds } from '../events/feed';
import { enqueueEmail } from '../mail/outbox';
import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { rowsOf } from '../shared/prepared';
import { sendDueEvents } from './fan-out';
import { afterAttempt, DELIVERY_BATCH, LEASE_MS } from './schedule';
import { type SendResult, sendWebhook, type WebhookAgents } from './send';
import { secretOf, webhookFor } from './subscriptions';

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
 * Sends what is due once: the first attempts of queued events (fanned out to their endpoints,
 * fan-out.ts), then the retries, storage, test and redelivered deliveries. Returns the rows claimed (0:
 * nothing was due). The events claimed per pass follow the last pass's fan-out, so a pass stays near
 * DELIVERY_BATCH deliveries (docs/webhooks.md, "Delivery").
 */
export async function processDueDeliveries(
  svc: Services,
  params: { agents?: WebhookAgents; pace?: { fanOut: number } } = {},
): Promise<number> {
  const pace = params.pace ?? { fanOut: 1 };
  const events = Math.max(1, Math.floor(DELIVERY_BATCH / Math.max(1, pace.fanOut)));
  const first = await sendDueEvents(svc, { events, agents: params.agents });
  if (first.events) pace.fanOut = first.deliveries / first.events;
  return first.events + (await sendDueRetries(svc, params));
}

/**
 * The delivery rows that are due. A short transaction claims rows with FOR UPDATE SKIP LOCKED and moves
 * their next attempt past a lease, so two instances never send one attempt and a crash mid-send only
 * delays it; the sends run outside any transaction, at once, over the sender's kept connections; the
 * outcomes are written in one statement, each only if its row is still the claimed attempt.
 */
async function sendDueRetries(svc: Services, params: { agents?: WebhookAgents }): Promise<number> {
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
      .limit(DELIVERY_BATCH)
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
    const { status, exhausted, next } = afterAttempt({ ok: result.ok, attempts, at });
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
