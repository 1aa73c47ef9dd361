import type { DbOrTx } from '@plenum/db';
import { sql } from 'drizzle-orm';
import { executePrepared, rowsOf } from '../shared/prepared';

/**
 * Session lookups are grouped: the lookups that arrive in one turn of the event loop go to the database
 * as one prepared statement (`token_hash = any($1)`), so under load a request costs a share of one small
 * statement instead of a query of its own, and no per-request SQL building. Each lookup still reads the
 * database after its request arrived, so logout, suspension and deletion take effect at once, exactly as
 * with one query per request. Nothing is cached between turns. The same statement writes `last_used_at`
 * of the sessions it found that were not used for LAST_USED_RESOLUTION_MS (a data-modifying CTE): the
 * write that used to be a second statement a turn, a second round trip before those requests went on.
 * The queue belongs to the service container (`svc.sessions`).
 */

/** Sessions are used this long apart before their lastUsedAt is written again. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** a live session (not expired) and its user */
export interface SessionRow {
  id: string;
  user: {
    id: string;
    role: 'user' | 'admin';
    status: 'pending_verification' | 'active' | 'suspended';
    email: string;
    deleted: boolean;
  };
}

/** at most this many tokens per statement; more wait for the next statement of the same turn */
const MAX_GROUP = 500;

interface Waiter {
  resolve: (value: SessionRow | null) => void;
  reject: (err: unknown) => void;
}

interface Found {
  token_hash: string;
  id: string;
  user_id: string;
  role: SessionRow['user']['role'];
  status: SessionRow['user']['status'];
  email: string;
  deleted: boolean;
}

/**
 * The live sessions of these token hashes with their users; touched (last_used_at = now) when their user
 * may sign in (not deleted, not suspended) and they were last used over the resolution ago. The CTE's
 * update runs whether or not the main query reads it; it sees the rows as they were before the statement,
 * so the answer is the same as a plain read followed by the touch.
 */
const lookupStatement = (hashes: string[], now: string) => sql`
  with found as (
    select s.token_hash, s.id, s.last_used_at, s.user_id, u.role, u.status, u.email,
      u.deleted_at is not null as deleted
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = any(${sql.param(hashes)}::text[]) and s.expires_at > ${now}::timestamptz
  ), touched as (
    update sessions set last_used_at = ${now}::timestamptz
    where id in (
      select id from found
      where not deleted and status <> 'suspended'
        and (last_used_at is null
          or last_used_at < ${now}::timestamptz - ${LAST_USED_RESOLUTION_MS}::integer * interval '1 millisecond'))
    returning 1
  )
  select token_hash, id, user_id, role, status, email, deleted from found`;

/** the live session with a token hash and its user, or null; grouped with the lookups of this turn */
export class SessionLookups {
  private pending = new Map<string, Waiter[]>();
  private scheduled = false;

  constructor(private readonly db: DbOrTx) {}

  find(tokenHash: string, now: Date): Promise<SessionRow | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(tokenHash);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(tokenHash, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // `now` of the first lookup in the turn: the same instant for all of them
        setImmediate(() => this.flush(now));
      }
    });
  }

  private flush(now: Date) {
    this.scheduled = false;
    const all = this.pending;
    this.pending = new Map();
    const hashes = [...all.keys()];
    for (let i = 0; i < hashes.length; i += MAX_GROUP)
      void this.run(hashes.slice(i, i + MAX_GROUP), all, now);
  }

  private async run(hashes: string[], waiters: Map<string, Waiter[]>, now: Date) {
    try {
      const result = await executePrepared(
        this.db,
        'plenum_session_lookup',
        lookupStatement(hashes, now.toISOString()),
      );
      const found = new Map(
        rowsOf<Found>(result).map((r) => [
          r.token_hash,
          {
            id: r.id,
            user: { id: r.user_id, role: r.role, status: r.status, email: r.email, deleted: r.deleted },
          },
        ]),
      );
      for (const h of hashes) for (const w of waiters.get(h)!) w.resolve(found.get(h) ?? null);
    } catch (err) {
      for (const h of hashes) for (const w of waiters.get(h)!) w.reject(err);
    }
  }
}

/** this instance's session queue, built once with the service container (services.ts) */
export interface SessionQueues {
  lookups: SessionLookups;
}

export const createSessionQueues = (db: DbOrTx): SessionQueues => ({ lookups: new SessionLookups(db) });
