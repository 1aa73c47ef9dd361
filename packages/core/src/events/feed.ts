import { events } from '@plenum/db';
import { and, asc, eq, gt, inArray, lte, max, sql } from 'drizzle-orm';
import { type EventEnvelope, toEnvelope } from '../governance/event-log';
import type { Services } from '../services';
import type { EventFilter } from './filter';

/** Largest page read at once, so a replay of a long history never loads it whole. */
export const MAX_EVENT_PAGE = 1000;

export interface ReadEventsParams {
  /** exclusive lower bound */
  after: number;
  /** inclusive upper bound */
  upTo?: number | undefined;
  limit: number;
  filter?: EventFilter | undefined;
}

/** Stored events after an id, in id order, at most `limit` (capped at MAX_EVENT_PAGE). */
export async function readEvents(svc: Pick<Services, 'db'>, p: ReadEventsParams): Promise<EventEnvelope[]> {
  const f = p.filter ?? {};
  const rows = await svc.db
    .select()
    .from(events)
    .where(
      and(
        gt(events.id, p.after),
        p.upTo !== undefined ? lte(events.id, p.upTo) : undefined,
        f.events ? inArray(events.type, [...f.events]) : undefined,
        f.daoId ? eq(events.daoId, f.daoId) : undefined,
        f.proposalId ? eq(events.proposalId, f.proposalId) : undefined,
      ),
    )
    .orderBy(asc(events.id))
    .limit(Math.min(Math.max(p.limit, 1), MAX_EVENT_PAGE));
  return rows.map(toEnvelope);
}

/** Stored events with exactly these ids (a late commit into a gap that was given up on). */
export async function readEventsByIds(
  svc: Pick<Services, 'db'>,
  params: { ids: number[] },
): Promise<EventEnvelope[]> {
  const { ids } = params;
  if (!ids.length) return [];
  const rows = await svc.db.select().from(events).where(inArray(events.id, ids)).orderBy(asc(events.id));
  return rows.map(toEnvelope);
}

export async function maxEventId(svc: Pick<Services, 'db'>): Promise<number> {
  const [row] = await svc.db.select({ id: max(events.id) }).from(events);
  return Number(row?.id ?? 0);
}

/**
 * A transaction id newer than every transaction running now (it is this statement's own, committed at
 * once). Used to wait until every writer that might still fill an id gap has ended.
 */
export async function currentXactId(svc: Pick<Services, 'db'>): Promise<string> {
  const rows = await svc.db.execute<{ x: string }>(sql`select pg_current_xact_id()::text as x`);
  return firstRow<{ x: string }>(rows).x;
}

/** True once every transaction older than `xid` has committed or aborted. */
export async function xactsEndedBefore(svc: Pick<Services, 'db'>, params: { xid: string }): Promise<boolean> {
  const rows = await svc.db.execute<{ done: boolean }>(
    sql`select pg_snapshot_xmin(pg_current_snapshot()) > ${params.xid}::xid8 as done`,
  );
  return Boolean(firstRow<{ done: boolean }>(rows).done);
}

// postgres.js returns an array, PGlite an object with rows
function firstRow<T>(result: unknown): T {
  const rows = Array.isArray(result) ? result : (result as { rows: T[] }).rows;
  return rows[0] as T;
}
