import { base32upper } from 'multiformats/bases/base32';
import type { CID } from 'multiformats/cid';

/** work in flight (an upload between add and pin, a pin fetching) keeps what it touches from GC */
export interface Lease {
  release(): void;
}

/**
 * A block's key as blockstore-fs (its default NextToLast layout) names the file, without the extension:
 * the multihash in base32upper. CIDv0 and v1 of one multihash are one block and one key.
 */
export const blockKey = (cid: CID) => base32upper.encode(cid.multihash.bytes);

/**
 * What keeps GC from removing a block that work in flight relies on (docs/storage.md, "Garbage
 * collection"). Every blockstore call (put, has, get) first "touches" the block's key: the key is added to
 * every open lease and, while a run is sweeping, to that run's protected set. A lease opened before a run
 * hands its keys to the run when the run begins; one released during a run hands them over when it ends.
 * So a run never deletes a block that an upload or a pin touched after the run began, or before it while
 * still in flight.
 *
 * The check and the claim are synchronous (one turn of the event loop), and a call on a block being
 * deleted waits for the delete: either the touch comes first and the sweep skips the block, or the delete
 * comes first and the caller sees the block absent (an importer writes it again, a pin fetches it again).
 */
export class BlockGuard {
  private readonly leases = new Set<Set<string>>();
  private run: Set<string> | null = null;
  private readonly deleting = new Map<string, Promise<unknown>>();

  /** records that work relies on the block; resolves once a delete of it under way has finished */
  touch(key: string): Promise<unknown> | undefined {
    this.run?.add(key);
    for (const l of this.leases) l.add(key);
    return this.deleting.get(key);
  }

  lease(): Lease {
    const keys = new Set<string>();
    this.leases.add(keys);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.leases.delete(keys);
        if (this.run) for (const k of keys) this.run.add(k);
      },
    };
  }

  /** how many leases are open (tests and the report) */
  get inFlight() {
    return this.leases.size;
  }

  /** a run begins: the keys of every open lease are protected from now on, and every later touch */
  beginRun() {
    const run = new Set<string>();
    for (const l of this.leases) for (const k of l) run.add(k);
    this.run = run;
  }

  endRun() {
    this.run = null;
  }

  /**
   * Deletes the block with `remove` unless it is live or protected; false when it was kept. Touches of
   * the key during the delete wait for it.
   */
  async sweep(key: string, live: Set<string>, remove: () => Promise<unknown>): Promise<boolean> {
    if (live.has(key) || this.run?.has(key) || this.deleting.has(key)) return false;
    const p = remove().finally(() => this.deleting.delete(key));
    this.deleting.set(key, p);
    await p;
    return true;
  }
}
