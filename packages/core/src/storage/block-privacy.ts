import { createUnsafe } from 'multiformats/block';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';

/** what the pin records say about a CID: some record is public, all are non-public, or none holds it */
export type RootVisibility = 'public' | 'restricted' | 'none';

/** how the guard reads the pin records (storage/visibility.ts): one CID, or every pinned CID at start */
export interface PrivacySource {
  visibilityOf(cid: string): Promise<RootVisibility>;
  roots(): Promise<{ restricted: string[]; public: string[] }>;
  /** a rebuild or update that failed (the guard keeps refusing what it refused) */
  onError?(err: unknown): void;
}

/** blocks marked through a hold are refused to peers until it is released (an upload or pin in flight) */
export interface PrivacyHold {
  mark(cid: CID): void;
  release(): void;
}

/** The embedded node's guard, as storage code sees it (docs/storage.md, "Not given to other peers"). */
export interface NodePrivacy {
  hold(): PrivacyHold;
  /** the CID's pin records changed: re-read them; resolves once the guard applied it */
  changed(cid: string): Promise<void>;
  /** where the records are read from; rebuilds the guard from every pinned CID */
  attach(source: PrivacySource): Promise<void>;
  /** whether a block would be refused to a peer now (tests and diagnostics) */
  refuses(cid: CID): boolean;
  /**
   * whether a block belongs only to non-public DAGs (or to one in flight), for reads of a CID no pin
   * record holds; waits for the guard's first rebuild at start (true, the safe side, if it failed)
   */
  hides(cid: CID): Promise<boolean>;
  /** resolves when no update or rebuild is left */
  idle(): Promise<void>;
}

interface LocalStore {
  get(cid: CID): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

type GetCodec = (code: number) => Promise<{ decode(bytes: Uint8Array): unknown }> | unknown;

/** bitswap matches blocks by multihash (a peer may ask with another CID version or codec) */
const keyOf = (cid: CID) => Buffer.from(cid.multihash.bytes).toString('base64');

/**
 * Which blocks the embedded node refuses to other peers: those of DAGs that only non-public pins hold
 * (docs/storage.md, "Not given to other peers"). Kept in memory: each non-public root's block set (a walk
 * of its DAG in the local blockstore, at pin time and rebuilt at start), a count of non-public roots per
 * block, the blocks of those that a public DAG holds too (served), and the blocks of uploads and pins in
 * flight (held until their records are written). Every change runs in one queue, so a rebuild and an
 * update never interleave. Refusing too much is the safe side: a root whose records were all removed
 * stays refused until the next start, and a block shared with a public DAG is refused until the
 * rebuild that follows a new non-public root has seen it.
 */
export class BlockPrivacy implements NodePrivacy {
  private readonly held = new Map<string, number>();
  private roots = new Map<string, Set<string>>();
  private counts = new Map<string, number>();
  private shared = new Set<string>();
  private source: PrivacySource | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private rebuildQueued = false;
  /** whether the last rebuild saw public roots: only then can a new non-public root share their blocks */
  private publicRootsMayExist = true;
  /** until the first rebuild from the records, every block is refused: nothing is known yet */
  private ready = false;

  constructor(
    private readonly store: LocalStore,
    private readonly getCodec: GetCodec,
  ) {}

  refuses(cid: CID): boolean {
    if (!this.ready) return true;
    const key = keyOf(cid);
    if (this.held.has(key)) return true;
    return this.counts.has(key) && !this.shared.has(key);
  }

  async hides(cid: CID): Promise<boolean> {
    // not attached to the pin records (no server runs it): nothing is known to hide
    if (!this.source) return false;
    if (!this.ready) await this.idle();
    return this.refuses(cid);
  }

  hold(): PrivacyHold {
    const mine = new Set<string>();
    return {
      mark: (cid) => {
        const key = keyOf(cid);
        if (mine.has(key)) return;
        mine.add(key);
        this.held.set(key, (this.held.get(key) ?? 0) + 1);
      },
      release: () => {
        for (const key of mine) {
          const n = (this.held.get(key) ?? 1) - 1;
          if (n > 0) this.held.set(key, n);
          else this.held.delete(key);
        }
        mine.clear();
      },
    };
  }

  attach(source: PrivacySource): Promise<void> {
    this.source = source;
    return this.scheduleRebuild();
  }

  changed(cid: string): Promise<void> {
    return this.enqueue(() => this.refresh(cid));
  }

  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  private enqueue(job: () => Promise<void>): Promise<void> {
    const next = this.queue.then(job).catch((err: unknown) => {
      this.source?.onError?.(err);
      // a first rebuild that failed (the database not reachable yet) is tried again
      if (!this.ready) setTimeout(() => void this.scheduleRebuild(), 5_000).unref();
    });
    this.queue = next;
    return next;
  }

  /** one rebuild after the current work, however many were asked for meanwhile */
  private scheduleRebuild(): Promise<void> {
    if (this.rebuildQueued) return this.queue.then(() => {});
    this.rebuildQueued = true;
    return this.enqueue(async () => {
      this.rebuildQueued = false;
      await this.rebuild();
    });
  }

  private async refresh(cid: string) {
    if (!this.source) return;
    const visibility = await this.source.visibilityOf(cid);
    const blocks = this.roots.get(cid);
    if (visibility === 'restricted') {
      // walked again: the first walk may have run before a pin by CID fetched the blocks
      const walked = await this.walk(cid);
      if (blocks) this.removeRoot(cid);
      this.addRoot(cid, walked);
      // a public DAG may already hold some of these blocks: the rebuild finds them
      if (this.publicRootsMayExist) void this.scheduleRebuild();
      return;
    }
    if (visibility === 'none') return; // refused until the next start (see the class comment)
    // public now: its own blocks, and those it shares with non-public DAGs, are served
    this.publicRootsMayExist = true;
    if (blocks) this.removeRoot(cid);
    if (!this.counts.size) return;
    for (const key of blocks ?? (await this.walk(cid))) if (this.counts.has(key)) this.shared.add(key);
  }

  private async rebuild() {
    if (!this.source) return;
    const { restricted, public: open } = await this.source.roots();
    const roots = new Map<string, Set<string>>();
    for (const cid of restricted) roots.set(cid, this.roots.get(cid) ?? (await this.walk(cid)));
    const openSet = new Set(open);
    // roots whose records are gone stay refused until the next start
    for (const [cid, blocks] of this.roots) if (!roots.has(cid) && !openSet.has(cid)) roots.set(cid, blocks);
    const counts = new Map<string, number>();
    for (const blocks of roots.values())
      for (const key of blocks) counts.set(key, (counts.get(key) ?? 0) + 1);
    const shared = new Set<string>();
    if (counts.size) {
      for (const cid of open) for (const key of await this.walk(cid)) if (counts.has(key)) shared.add(key);
    }
    this.publicRootsMayExist = open.length > 0;
    this.roots = roots;
    this.counts = counts;
    this.shared = shared;
    this.ready = true;
  }

  private addRoot(cid: string, blocks: Set<string>) {
    this.roots.set(cid, blocks);
    for (const key of blocks) {
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      this.shared.delete(key);
    }
  }

  private removeRoot(cid: string) {
    const blocks = this.roots.get(cid);
    if (!blocks) return;
    this.roots.delete(cid);
    for (const key of blocks) {
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n > 0) this.counts.set(key, n);
      else {
        this.counts.delete(key);
        this.shared.delete(key);
      }
    }
  }

  /**
   * Every block key of the DAG that the local blockstore can reach, without asking the network: raw
   * leaves by their CID alone (a leaf has no links), other blocks read for their links. A block that is
   * not here is counted (it may arrive later) but not followed.
   */
  private async walk(root: string): Promise<Set<string>> {
    const keys = new Set<string>();
    let start: CID;
    try {
      start = CID.parse(root);
    } catch {
      return keys;
    }
    const stack = [start];
    while (stack.length) {
      const cid = stack.pop()!;
      const key = keyOf(cid);
      if (keys.has(key)) continue;
      keys.add(key);
      if (cid.code === raw.code) continue;
      let bytes: Uint8Array;
      try {
        const parts: Uint8Array[] = [];
        for await (const p of this.store.get(cid)) parts.push(p);
        bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      } catch (err) {
        if ((err as Error).name === 'NotFoundError') continue;
        throw err;
      }
      const codec = (await this.getCodec(cid.code)) as NonNullable<
        Parameters<typeof createUnsafe>[0]['codec']
      >;
      for (const [, link] of createUnsafe({ cid, bytes, codec }).links()) stack.push(link);
    }
    return keys;
  }
}
