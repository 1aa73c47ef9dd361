import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz, updatedAt } from './columns';
import { daos } from './governance';
import { users } from './users';

/**
 * Outbound webhook subscriptions (docs/webhooks.md): a user's own storage events (daoId null) or one DAO's
 * events. The signing secret is sealed with the server's secret key (shared/secret-box.ts).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    daoId: uuid('dao_id').references(() => daos.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** set when every attempt of a delivery failed (docs/webhooks.md, "Delivery") */
    disabledAt: tstz('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhooks_user_idx').on(t.userId), index('webhooks_dao_idx').on(t.daoId)],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One row per (endpoint, event) once its first attempt's outcome is known, or per storage, test or
 * redelivered delivery from the start: the retries' queue every instance shares. A stored event's row has
 * an id derived from (endpoint, event), so a second fan-out of the same event writes nothing new. Due rows
 * are claimed with FOR UPDATE SKIP LOCKED and a lease (`nextAttemptAt` moved past the send), so no attempt
 * is sent by two instances and none is lost when an instance dies (docs/webhooks.md, "Delivery").
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: parentId('webhook_id', () => webhooks.id),
    eventType: text('event_type').notNull(),
    /** the stored event sent (its envelope is read at send time); null for storage and test deliveries */
    eventId: bigint('event_id', { mode: 'number' }),
    /** the body of a delivery that is not a stored event */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    /** attempts made so far */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    /** the first 1 KiB of the last response body */
    responseBody: text('response_body'),
    error: text('error'),
    lastAttemptAt: tstz('last_attempt_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    check('webhook_deliveries_body', sql`${t.eventId} is not null or ${t.payload} is not null`),
  ],
);

/**
 * The send queue of the stored stream: one row per committed event some enabled webhook wants, fanned
 * out to the endpoints when sent and deleted with the first attempts' outcomes. Claimed like deliveries
 * (FOR UPDATE SKIP LOCKED, `nextAttemptAt` as the lease; docs/webhooks.md, "Delivery").
 */
export const webhookEvents = pgTable('webhook_events', {
  eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
  nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
});

/**
 * How far the stored event stream has been queued for webhooks (one row): an instance that starts
 * queues the events after it, so events committed while no instance ran are not lost
 * (docs/webhooks.md, "Delivery").
 */
export const webhookFeed = pgTable('webhook_feed', {
  id: integer('id').primaryKey(),
  queuedThrough: bigint('queued_through', { mode: 'number' }).notNull(),
});
