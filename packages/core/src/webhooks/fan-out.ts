import { events as storedEvents, webhookDeliveries, webhookFeed, webhooks } from '@plenum/db';
import { and, eq, inArray, max, sql } from 'drizzle-orm';
import { readEvents, readEventsByIds } from '../events/feed';
import type { EventEnvelope } from '../governance/event-log';
import type { Services } from '../services';
import { rowsOf } from '../shared/prepared';
import { afterAttempt, deliveryIdFor, LEASE_MS } from './schedule';
import { type SendResult, sendWebhook, type WebhookAgents } from './send';
import { secretOf } from './subscriptions';

/**
 * Queues committed stored events that some enabled webhook wants: one `webhook_events` row per event,
 * whatever the number of endpoints (called by every instance's event bus after delivery; the event id as
 * key makes the copies one). One statement: the events go as three arrays (ids, DAOs, types) and
 * PostgreSQL keeps those an enabled webhook of their DAO asks for (docs/webhooks.md, "Delivery").
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
    insert into webhook_events (event_id, next_attempt_at)
    select e.id, ${svc.clock.now().toISOString()}::timestamptz
    from unnest(${literal(withDao.map((e) => e.id))}::bigint[], ${literal(withDao.map((e) => e.daoId!))}::uuid[],
      ${literal(withDao.map((e) => e.type))}::text[]) as e(id, dao_id, type)
    where exists (select 1 from webhooks w where w.dao_id = e.dao_id and w.enabled and e.type = any(w.events))
    on conflict (event_id) do nothing`);
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
 * the bus. Copies another instance also queued are kept once by the event id.
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

interface FirstAttempt {
  id: string;
  webhookId: string;
  event: EventEnvelope;
  at: Date;
  /** null: no attempt was made (the row waits a lease, then takes the retries' path) */
  result: SendResult | null;
}

/**
 * Sends the first attempts of up to `events` queued events. One statement claims them (FOR UPDATE SKIP
 * LOCKED, their next attempt moved a lease ahead), so two instances never fan out one event and an
 * instance that dies leaves them to the next after the lease; each is sent to every enabled webhook of its
 * DAO that wants it, as a delivery whose id is fixed by (webhook, event); then one statement deletes the
 * claimed events and writes each delivery's row with its outcome, only while the claim still holds
 * (docs/webhooks.md, "Delivery"). Returns the events claimed and the deliveries sent.
 */
export async function sendDueEvents(
  svc: Services,
  params: { events: number; agents?: WebhookAgents | undefined },
): Promise<{ events: number; deliveries: number }> {
  const now = svc.clock.now();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  const claimed = rowsOf<{ event_id: string | number }>(
    await svc.db.execute(sql`
      update webhook_events set next_attempt_at = ${lease}::timestamptz
      where event_id in (
        select event_id from webhook_events where next_attempt_at <= ${now.toISOString()}::timestamptz
        order by event_id limit ${params.events} for update skip locked)
      returning event_id`),
  ).map((r) => Number(r.event_id));
  if (!claimed.length) return { events: 0, deliveries: 0 };
  const envelopes = await readEventsByIds(svc, { ids: claimed });
  const daoIds = [...new Set(envelopes.flatMap((e) => (e.daoId ? [e.daoId] : [])))];
  // the endpoints as they are now: a webhook disabled since the event was queued gets nothing
  const hooks = daoIds.length
    ? await svc.db
        .select({
          id: webhooks.id,
          daoId: webhooks.daoId,
          url: webhooks.url,
          events: webhooks.events,
          secretSealed: webhooks.secretSealed,
        })
        .from(webhooks)
        .where(and(eq(webhooks.enabled, true), inArray(webhooks.daoId, daoIds)))
    : [];
  const jobs = envelopes.flatMap((event) =>
    hooks
      .filter((h) => h.daoId === event.daoId && h.events.includes(event.type))
      .map((hook) => ({ id: deliveryIdFor(hook.id, event.id), hook, event })),
  );
  // an event queued again after it was sent (another instance's copy arriving late) is not sent again:
  // its deliveries' rows exist under the same ids
  const written = jobs.length
    ? new Set(
        (
          await svc.db
            .select({ id: webhookDeliveries.id })
            .from(webhookDeliveries)
            .where(
              inArray(
                webhookDeliveries.id,
                jobs.map((j) => j.id),
              ),
            )
        ).map((r) => r.id),
      )
    : new Set<string>();
  const bodies = new Map(envelopes.map((e) => [e.id, JSON.stringify(e)]));
  const secrets = new Map<string, string>();
  const attempts = await Promise.all(
    jobs
      .filter((j) => !written.has(j.id))
      .map(async ({ id, hook, event }): Promise<FirstAttempt> => {
        try {
          let secret = secrets.get(hook.id);
          if (secret === undefined) {
            secret = secretOf(svc, hook);
            secrets.set(hook.id, secret);
          }
          const at = svc.clock.now();
          const result = await sendWebhook({
            url: hook.url,
            secret,
            messageId: id,
            timestamp: at,
            body: bodies.get(event.id)!,
            allowPrivate: svc.config.webhookAllowPrivateNetworks === true,
            agents: params.agents,
          });
          return { id, webhookId: hook.id, event, at, result };
        } catch (err) {
          // an instance without the right SECRET_KEY: kept as a pending delivery for another to send
          svc.log.warn({ deliveryId: id, err: (err as Error).message }, 'a webhook attempt was not made');
          return { id, webhookId: hook.id, event, at: now, result: null };
        }
      }),
  );
  try {
    await recordFirstAttempts(svc, { claimed, lease, attempts });
  } catch (err) {
    // the lease brings the events back: sent again later with the same ids, which at least once allows
    svc.log.warn(
      { err: (err as Error).message, events: claimed.length },
      'webhook attempts were not recorded',
    );
  }
  return { events: claimed.length, deliveries: attempts.length };
}

/** the claimed events deleted and their deliveries written, in one statement, only while the lease holds */
async function recordFirstAttempts(
  svc: Services,
  params: { claimed: number[]; lease: string; attempts: FirstAttempt[] },
) {
  const ids = `{${params.claimed.join(',')}}`;
  const held = sql`delete from webhook_events where event_id = any(${ids}::bigint[])
    and next_attempt_at = ${params.lease}::timestamptz returning event_id`;
  if (!params.attempts.length) {
    await svc.db.execute(held);
    return;
  }
  const values = params.attempts.map(({ id, webhookId, event, at, result }) => {
    if (result && !result.ok)
      svc.log.info({ deliveryId: id, attempts: 1, error: result.error }, 'webhook attempt failed');
    const made = result ? afterAttempt({ ok: result.ok, attempts: 1, at }) : null;
    const next = made ? made.next : new Date(at.getTime() + LEASE_MS);
    return sql`(${id}::uuid, ${webhookId}::uuid, ${event.type}::text, ${event.id}::bigint,
      ${made?.status ?? 'pending'}::text, ${made ? 1 : 0}::int, ${next.toISOString()}::timestamptz,
      ${result?.status ?? null}::int, ${result?.durationMs ?? null}::int, ${result?.body ?? null}::text,
      ${result?.error ?? null}::text, ${result ? at.toISOString() : null}::timestamptz)`;
  });
  // a webhook deleted meanwhile has no row to write (the join), so its foreign key cannot fail the rest
  await svc.db.execute(sql`
    with held as (${held})
    insert into webhook_deliveries (id, webhook_id, event_type, event_id, status, attempts, next_attempt_at,
      response_status, duration_ms, response_body, error, last_attempt_at)
    select v.id, v.webhook_id, v.event_type, v.event_id, v.status, v.attempts, v.next_attempt_at,
      v.response_status, v.duration_ms, v.response_body, v.error, v.last_attempt_at
    from (values ${sql.join(values, sql`, `)}) as v(id, webhook_id, event_type, event_id, status, attempts,
      next_attempt_at, response_status, duration_ms, response_body, error, last_attempt_at)
    join held on held.event_id = v.event_id
    join webhooks w on w.id = v.webhook_id
    on conflict (id) do nothing`);
}
