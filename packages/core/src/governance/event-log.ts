import { type DbOrTx, events } from '@plenum/db';
import { sql } from 'drizzle-orm';
import { executePrepared } from '../shared/prepared';

/** The governance events (docs/events.md, "The envelope"). */
export const GOVERNANCE_EVENT_TYPES = [
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
] as const;
export type GovernanceEventType = (typeof GOVERNANCE_EVENT_TYPES)[number];

/** The event envelope (docs/events.md, "The envelope"); on Socket.IO it is the one data argument. */
export interface EventEnvelope {
  id: number;
  type: GovernanceEventType;
  daoId: string;
  proposalId?: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** NOTIFY channel carrying new event ids to every server instance. */
export const EVENTS_CHANNEL = 'plenum_events';

export interface NewEvent {
  type: GovernanceEventType;
  daoId: string;
  proposalId?: string | undefined;
  data: Record<string, unknown>;
}

/**
 * Stores events in the caller's transaction (so an event exists exactly when its change does) and
 * notifies listeners; Postgres delivers NOTIFY on commit only, so nobody hears of a rolled-back change.
 * The payload is the highest id: listeners read the table for everything after what they have seen.
 */
export async function appendEvents(
  tx: DbOrTx,
  params: { items: NewEvent[]; at?: Date | undefined },
): Promise<EventEnvelope[]> {
  const { items, at } = params;
  if (!items.length) return [];
  const rows = await tx
    .insert(events)
    .values(
      items.map((e) => ({
        type: e.type,
        daoId: e.daoId,
        proposalId: e.proposalId ?? null,
        data: e.data,
        ...(at ? { occurredAt: at } : {}),
      })),
    )
    .returning();
  const maxId = Math.max(...rows.map((r) => r.id));
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${String(maxId)})`);
  return rows.map(toEnvelope);
}

/**
 * appendEvents for a large batch whose rows the caller does not need back (a vote batch's vote_cast
 * events): one INSERT with one array parameter per column (unnest), so neither building the statement
 * nor Postgres' parsing of it grows with thousands of parameters, and the NOTIFY goes in the same
 * statement. Same rows, same NOTIFY (the highest id), same transaction semantics.
 */
export async function appendEventsInBulk(tx: DbOrTx, items: NewEvent[], at: Date): Promise<void> {
  if (!items.length) return;
  const col = <T>(f: (e: NewEvent) => T) => sql.param(items.map(f));
  await executePrepared(
    tx,
    'events_append_bulk',
    sql`
    with ins as (
      insert into ${events} (type, dao_id, proposal_id, data, ${sql.identifier(events.occurredAt.name)})
      select e.type, e.dao_id::uuid, e.proposal_id::uuid, e.data::jsonb, ${at.toISOString()}::timestamptz
      from unnest(${col((e) => e.type)}::text[], ${col((e) => e.daoId)}::text[],
        ${col((e) => e.proposalId ?? null)}::text[], ${col((e) => JSON.stringify(e.data))}::text[])
        with ordinality as e(type, dao_id, proposal_id, data, n)
      order by e.n
      returning id
    )
    select pg_notify(${EVENTS_CHANNEL}, max(id)::text) from ins`,
  );
}

export function toEnvelope(r: typeof events.$inferSelect): EventEnvelope {
  return {
    id: r.id,
    type: r.type as GovernanceEventType,
    daoId: r.daoId,
    ...(r.proposalId ? { proposalId: r.proposalId } : {}),
    occurredAt: r.occurredAt.toISOString(),
    data: r.data,
  };
}
