import { type AccountEventKind, accountEvents, type DbOrTx } from '@plenum/db';
import { and, count, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { afterKey, cursorTime, decodeCursor, encodeCursor, type KeyPart } from '../shared/cursor';
import { type CursorPage, fetchCursorPage } from '../shared/pagination';
import type { SessionClient } from './sessions';

/**
 * Account activity (docs/accounts.md, "Account activity"): what happened to an account, for its owner to
 * review. Every event is written in the transaction of the change it records, so a change never commits
 * without its event, nor an event without its change.
 */

/** how long events are kept; older ones are swept (the server's activity sweeper) */
export const ACCOUNT_EVENT_RETENTION_MS = 180 * 86_400_000;

/** a header is the client's to choose: keep the row small (as a session's) */
const MAX_USER_AGENT = 512;
const MAX_IP = 100;

export interface AccountEventParams {
  userId: string;
  kind: AccountEventKind;
  detail?: Record<string, unknown>;
  ip?: string | null | undefined;
  userAgent?: string | null | undefined;
  at?: Date;
}

/** the client columns of an event, cut as a session's are */
export const clientColumns = (client?: SessionClient) => ({
  ip: client?.ip?.slice(0, MAX_IP) || null,
  userAgent: client?.userAgent?.slice(0, MAX_USER_AGENT) || null,
});

/** One event, in the caller's transaction (the change it records commits with it). */
export async function recordAccountEvent(tx: DbOrTx, params: AccountEventParams) {
  await tx.insert(accountEvents).values({
    userId: params.userId,
    kind: params.kind,
    detail: params.detail ?? {},
    ...clientColumns({ ip: params.ip, userAgent: params.userAgent }),
    ...(params.at ? { createdAt: params.at } : {}),
  });
}

/**
 * A failed sign-in of an existing account, or nothing for an unknown email: the statement runs either way
 * (its `where` decides), so a wrong password and an unknown email do the same work (docs/accounts.md,
 * "Password guessing").
 */
export async function recordFailedSignIn(
  db: DbOrTx,
  params: {
    userId: string | null;
    detail: Record<string, unknown>;
    client?: SessionClient | undefined;
    at: Date;
  },
) {
  const { ip, userAgent } = clientColumns(params.client);
  await db.execute(sql`
    insert into account_events (user_id, kind, detail, ip, user_agent, created_at)
    select ${params.userId}::uuid, 'sign_in_failed', ${JSON.stringify(params.detail)}::jsonb, ${ip}, ${userAgent},
      ${params.at.toISOString()}::timestamptz
    where ${params.userId}::uuid is not null`);
}

const LIST = 'account-events';
const KEY_PARTS: readonly KeyPart[] = ['time', 'uuid'];

/** GET /auth/activity: the caller's own events, newest first, by page or by cursor. */
export async function listAccountEvents(svc: Pick<Services, 'db'>, params: CursorPage & { userId: string }) {
  const mine = eq(accountEvents.userId, params.userId);
  const conditions: SQL[] = [mine];
  if (params.after !== undefined)
    conditions.push(
      afterKey(
        [accountEvents.createdAt, accountEvents.id],
        decodeCursor(LIST, params.after, KEY_PARTS),
        KEY_PARTS,
        'desc',
      ),
    );
  const { rows, pagination } = await fetchCursorPage(
    params,
    svc.db
      .select({ event: accountEvents, cursorAt: cursorTime(accountEvents.createdAt) })
      .from(accountEvents)
      .where(and(...conditions))
      .orderBy(desc(accountEvents.createdAt), desc(accountEvents.id))
      .$dynamic(),
    svc.db.select({ n: count() }).from(accountEvents).where(mine),
    (r) => encodeCursor(LIST, [r.cursorAt, r.event.id]),
  );
  return {
    items: rows.map(({ event: e }) => ({
      id: e.id,
      kind: e.kind,
      detail: e.detail,
      ip: e.ip,
      userAgent: e.userAgent,
      createdAt: e.createdAt.toISOString(),
    })),
    pagination,
    nextCursor: pagination.nextCursor,
  };
}

/** Deletes the events older than the retention; returns how many went. */
export async function sweepAccountEvents(svc: Pick<Services, 'db' | 'clock'>) {
  const before = new Date(svc.clock.now().getTime() - ACCOUNT_EVENT_RETENTION_MS);
  const gone = await svc.db
    .delete(accountEvents)
    .where(lt(accountEvents.createdAt, before))
    .returning({ id: accountEvents.id });
  return gone.length;
}
