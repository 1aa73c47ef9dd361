import { z } from 'zod';
import { coded } from './issue-codes';

/** The live event names (docs/events.md, "The envelope"). */
export const eventTypeSchema = z.enum([
  'dao_created',
  'dao_updated',
  'proposal_submitted',
  'proposal_updated',
  'vote_cast',
  'proposal_status_changed',
  'delegation_changed',
  // discussion (docs/discussion.md)
  'comment_posted',
  'comment_updated',
]);

/** An event id as a client may send it back: a number or its decimal string (tRPC's tracked ids are strings). */
export const lastEventIdSchema = z
  .union([
    z.number(),
    z.string().regex(/^\d{1,15}$/, coded('invalid_integer', 'must be a non-negative integer')),
  ])
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
  .meta({ description: 'resume after this event id (the id of the last event received)' });

/**
 * One subscription to the event stream, for tRPC (`events.subscribe`) and the Socket.IO handshake query.
 * `lastEventId` is also what the tRPC client adds by itself when it reconnects.
 */
export const eventSubscriptionInput = z.strictObject({
  lastEventId: lastEventIdSchema.nullish(),
  events: z.array(eventTypeSchema).min(1).max(eventTypeSchema.options.length).optional(),
  daoId: z.uuid().optional(),
  proposalId: z.uuid().optional(),
});
export type EventSubscriptionInput = z.input<typeof eventSubscriptionInput>;

/**
 * Socket.IO handshake query: the same fields as strings, `events` comma-separated. Other query keys
 * (Socket.IO's own EIO, transport, t) are ignored.
 */
export const socketEventQuery = z.preprocess((raw) => {
  const q = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['lastEventId', 'daoId', 'proposalId'] as const) {
    if (q[key] !== undefined && q[key] !== '') out[key] = q[key];
  }
  if (typeof q.events === 'string' && q.events !== '') {
    out.events = q.events
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  } else if (q.events !== undefined && q.events !== '') out.events = q.events;
  return out;
}, eventSubscriptionInput);
