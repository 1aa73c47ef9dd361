import { type DbOrTx, sessions, users } from '@plenum/db';
import { and, eq, gt, sql } from 'drizzle-orm';

/**
 * Session lookups are grouped: the lookups that arrive in one turn of the event loop go to the database
 * as one prepared query (`token_hash = any($1)`), so under load a request costs a share of one small
 * query instead of a query of its own, and no per-request SQL building. Each lookup still reads the
 * database after its request arrived, so logout, suspension and deletion take effect at once, exactly as
 * with one query per request. Nothing is cached between turns. The `lastUsedAt` writes of one turn are
 * grouped the same way (one UPDATE). Both queues belong to the service container (`svc.sessions`).
 */

export interface SessionRow {
  id: string;
  expiresAt: Date;
  lastUsedAt: Date | null;
  user: {
    id: string;
    role: 'user' | 'admin';
    status: 'pending_verification' | 'active' | 'suspended';
    email: string;
    deletedAt: Date | null;
  };
}

/** at most this many tokens per query; more wait for the next query of the same turn */
const MAX_GROUP = 500;

function prepareLookup(db: DbOrTx) {
  return db
    .select({
      tokenHash: sessions.tokenHash,
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      lastUsedAt: sessions.lastUsedAt,
      user: {
        id: users.id,
        role: users.role,
        status: users.status,
        email: users.email,
        deletedAt: users.deletedAt,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        sql`${sessions.tokenHash} = any(${sql.placeholder('hashes')}::text[])`,
        gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
      ),
    )
    .prepare('plenum_session_lookup');
}

type Lookup = ReturnType<typeof prepareLookup>;

interface Waiter<T = SessionRow | null> {
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/** the live session with a token hash and its user, or null; grouped with the lookups of this turn */
export class SessionLookups {
  private readonly query: Lookup;
  private pending = new Map<string, Waiter[]>();
  private scheduled = false;

  constructor(db: DbOrTx) {
    this.query = prepareLookup(db);
  }

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
      const rows = await this.query.execute({ hashes, now: now.toISOString() });
      const found = new Map(rows.map((r) => [r.tokenHash, r]));
      for (const h of hashes) for (const w of waiters.get(h)!) w.resolve(found.get(h) ?? null);
    } catch (err) {
      for (const h of hashes) for (const w of waiters.get(h)!) w.reject(err);
    }
  }
}

/**
 * The touch as one prepared statement of fixed text (the ids as one array parameter): built once, and
 * one round trip a turn. Built per turn with an IN list, its text varied with the count, so each turn
 * paid drizzle's query building and an unprepared statement's extra round trip (Parse/Describe).
 */
function prepareTouch(db: DbOrTx) {
  return db
    .update(sessions)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(sql`${sessions.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('plenum_session_touch');
}

/** lastUsedAt writes of the sessions used in one turn of the event loop, as one statement */
export class SessionTouches {
  private pending = new Map<string, Waiter<void>[]>();
  private scheduled = false;
  private readonly query: ReturnType<typeof prepareTouch>;

  constructor(db: DbOrTx) {
    this.query = prepareTouch(db);
  }

  touch(id: string, now: Date): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(id, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush(now));
      }
    });
  }

  private async flush(now: Date) {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    const settle = (fn: (w: Waiter<void>) => void) => {
      for (const ws of batch.values()) for (const w of ws) fn(w);
    };
    try {
      await this.query.execute({ ids: [...batch.keys()], now: now.toISOString() });
      settle((w) => w.resolve());
    } catch (err) {
      settle((w) => w.reject(err));
    }
  }
}

/** this instance's session queues, built once with the service container (services.ts) */
export interface SessionQueues {
  lookups: SessionLookups;
  touches: SessionTouches;
}

export const createSessionQueues = (db: DbOrTx): SessionQueues => ({
  lookups: new SessionLookups(db),
  touches: new SessionTouches(db),
});
