/**
 * Turns "rows visible after the cursor" into "rows safe to deliver, in id order".
 *
 * Event ids come from a sequence, so concurrent transactions can commit out of id order: id 11 may be
 * visible while id 10 is still uncommitted, or id 10 may never exist (its transaction rolled back). The
 * sequencer only delivers a contiguous run after its cursor and holds back at a gap until the gap is
 * known to be permanent:
 *
 * 1. the gap is seen (cursor + 1 missing, a higher id visible);
 * 2. after `graceMs` the caller pins a transaction id X (pg_current_xact_id()): every writer that drew a
 *    missing id drew it before the higher visible id, so by then it has an xid older than X;
 * 3. once every transaction older than X has ended, a fresh read that still lacks the ids proves they
 *    will never appear, and the cursor jumps over them.
 *
 * As a last resort (an unrelated long transaction keeps step 3 waiting) a gap is skipped after
 * `maxWaitMs`; those ids are watched for a while and delivered late if they do appear.
 */
export interface SequencerOptions {
  graceMs: number;
  maxWaitMs: number;
  /** how long ids skipped by force are watched for a late commit */
  lateWatchMs: number;
}

export interface Sequenced {
  id: number;
}

interface Gap {
  /** the cursor when the gap was seen: the gap starts at after + 1 */
  after: number;
  seenAt: number;
  xid: string | null;
  writersEnded: boolean;
}

export interface Advance<T> {
  deliver: T[];
  /** ids given up on without proof (delivered late if they appear) */
  forced: number[];
  /** a gap holds delivery back */
  waiting: boolean;
}

const MAX_WATCHED = 10_000;

export class Sequencer {
  private gap: Gap | null = null;
  private readonly watched = new Map<number, number>();

  constructor(
    public cursor: number,
    private readonly opts: SequencerOptions,
  ) {}

  /** True when a gap is old enough that the caller should pin a transaction id now. */
  needsXid(now: number): boolean {
    return this.gap !== null && this.gap.xid === null && now - this.gap.seenAt >= this.opts.graceMs;
  }

  pinXid(xid: string) {
    if (this.gap && this.gap.xid === null) this.gap.xid = xid;
  }

  /** The pinned xid to check before the next read, if the gap is still undecided. */
  pendingCheck(): string | null {
    return this.gap?.xid && !this.gap.writersEnded ? this.gap.xid : null;
  }

  /** Every transaction older than `xid` has ended (checked before the read that follows). */
  writersEnded(xid: string) {
    if (this.gap?.xid === xid) this.gap.writersEnded = true;
  }

  /** Consumes rows read (in id order) after the cursor. */
  advance<T extends Sequenced>(rows: readonly T[], now: number): Advance<T> {
    const deliver: T[] = [];
    const forced: number[] = [];
    for (const row of rows) {
      if (row.id <= this.cursor) continue;
      if (row.id !== this.cursor + 1) {
        const gap = this.gap?.after === this.cursor ? this.gap : null;
        if (!gap) {
          this.gap = { after: this.cursor, seenAt: now, xid: null, writersEnded: false };
          return { deliver, forced, waiting: true };
        }
        const timedOut = now - gap.seenAt >= this.opts.maxWaitMs;
        if (!gap.writersEnded && !timedOut) return { deliver, forced, waiting: true };
        if (!gap.writersEnded) {
          for (let id = this.cursor + 1; id < row.id; id++) forced.push(id);
          this.watch(forced, now);
        }
      }
      this.gap = null;
      this.cursor = row.id;
      deliver.push(row);
    }
    return { deliver, forced, waiting: false };
  }

  /** Ids skipped by force that are still worth looking for. */
  watchedIds(now: number): number[] {
    for (const [id, at] of this.watched) if (now - at > this.opts.lateWatchMs) this.watched.delete(id);
    return [...this.watched.keys()];
  }

  /** A watched id appeared (it is delivered late) and needs no more watching. */
  found(id: number) {
    this.watched.delete(id);
  }

  private watch(ids: number[], now: number) {
    for (const id of ids.slice(0, MAX_WATCHED)) this.watched.set(id, now);
    // keep the newest when too many accumulate
    while (this.watched.size > MAX_WATCHED) {
      const oldest = this.watched.keys().next().value as number;
      this.watched.delete(oldest);
    }
  }
}
