import type { CID } from 'multiformats/cid';
import { AppError } from '../shared/errors';
import type { Lease } from './block-guard';
import type { NodePrivacy, PrivacyHold } from './block-privacy';
import type { GcReport } from './garbage-collector';

/**
 * How one attempt at one provider ended. `absent` is the embedded node saying "not in my blockstore":
 * it says nothing about the network, so it never decides between 404, 502 and 504 on its own.
 */
export type AttemptKind = 'absent' | 'not_found' | 'timeout' | 'error';

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly kind: AttemptKind,
    readonly provider: string,
    message: string,
    readonly attempts: AttemptKind[] = [kind],
  ) {
    super(message);
  }
}

export interface ContentSource {
  /** total bytes when the provider knows it up front */
  size: number | undefined;
  chunks: AsyncIterable<Uint8Array>;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface WriteOptions extends CallOptions {
  /** the embedded node refuses every block written or fetched under this hold to peers until released */
  hold?: PrivacyHold | undefined;
}

export interface PinOptions extends WriteOptions {
  /** the pin request's `origins`: multiaddrs of peers that have the content, dialled first */
  origins?: string[] | undefined;
}

export interface DirectoryImportEntry {
  /** relative, checked path (folders separated by `/`) */
  path: string;
  content: () => AsyncIterable<Uint8Array>;
}

export interface DirectoryImport {
  cid: CID;
  /** each file's CID by its path */
  files: Map<string, CID>;
}

export type EntryType = 'file' | 'directory';

export interface ResolvedPath {
  cid: CID;
  type: EntryType;
}

export interface DirectoryListEntry {
  name: string;
  cid: CID;
  /** bytes of a file; a directory's is what the node reports (its DAG node) */
  size: number;
  type: EntryType;
}

/** the node's place on the network, for GET /health (null: no libp2p) */
export interface NodeNetwork {
  peerId: string;
  addresses: string[];
  connections: number;
}

/** The IPFS node Plenum writes to and pins on: the embedded Helia node or a Kubo node. */
export interface NodeProvider {
  readonly name: 'embedded' | 'kubo';
  /** imports a byte stream as a UnixFS file (CIDv1, raw leaves); does not pin */
  add(source: AsyncIterable<Uint8Array>, options?: WriteOptions): Promise<CID>;
  open(cid: CID, options?: CallOptions): Promise<ContentSource>;
  /**
   * imports several files as one UnixFS directory (wrapped, the same DAG options as `add`); does not pin.
   * `content` is called once per file, when the importer reaches it
   */
  addDirectory(entries: DirectoryImportEntry[], options?: WriteOptions): Promise<DirectoryImport>;
  /** what `path` names inside the directory `cid` (docs/storage.md, "Folders and several files") */
  resolve(cid: CID, path: string, options?: CallOptions): Promise<ResolvedPath>;
  /** the entries of the directory `cid` */
  ls(cid: CID, options?: CallOptions): Promise<DirectoryListEntry[]>;
  /**
   * stores every block of a CAR whose blocks the caller has already checked against their CIDs (car.ts);
   * does not pin
   */
  importCar(source: () => AsyncIterable<Uint8Array>, options?: WriteOptions): Promise<void>;
  /** fetches what is missing and pins recursively; pinning a pinned CID is a no-op */
  pin(cid: CID, options?: PinOptions): Promise<void>;
  /** removes the pin; unpinning a CID that is not pinned is a no-op */
  unpin(cid: CID, options?: CallOptions): Promise<void>;
  isPinned(cid: CID, options?: CallOptions): Promise<boolean>;
  /** bytes of a pinned DAG's blocks, what a pin by CID counts against the quota (docs/storage.md, "Quotas") */
  dagSize(cid: CID, options?: CallOptions): Promise<number>;
  /** IPFS_PIN_BROADCAST: tell the network this node provides the CID */
  announce(cid: CID, options?: CallOptions): Promise<void>;
  status(): Promise<{ ok: boolean; detail?: string }>;
  /** one raw block: the embedded node's local store, or Kubo's `block/get` (proposal records' receipts) */
  getBlock?(cid: CID): Promise<Uint8Array>;
  /**
   * Embedded node only (docs/storage.md, "Garbage collection"): a lease for work in flight (an upload
   * between add and pin): no GC run removes a block the work touches until it is released
   */
  protect?(): Lease;
  /**
   * Embedded node only: removes every block no pin needs (the node's pins and `roots`, the pin records)
   * and no lease protects. One run at a time: a call during a run joins it and gets its report.
   */
  collectGarbage?(options: { roots: CID[]; signal?: AbortSignal | undefined }): Promise<GcReport>;
  /** embedded node only: the blockstore's bytes on disk (kept up to date between runs, an estimate) */
  usedBytes?(): Promise<number>;
  /** the embedded node's peer id, addresses and connections; null or absent when it has no libp2p */
  network?(): NodeNetwork | null;
  /**
   * the embedded node's guard that keeps blocks of non-public files from other peers (docs/storage.md,
   * "Not given to other peers"); absent on Kubo, which serves whatever it holds
   */
  privacy?: NodePrivacy;
  /** multiaddrs other nodes can connect to for the data (Pinning Service API `delegates`) */
  delegates(): Promise<string[]>;
  stop(): Promise<void>;
}

/** The outcome when no provider produced the content: 404, 504 or 502 (docs/storage.md, "Providers"). */
export function failureOf(attempts: AttemptKind[], what: string): AppError {
  const real = attempts.filter((k) => k !== 'absent');
  if (real.length === 0 || real.includes('not_found'))
    return new AppError('NOT_FOUND', `${what} was not found on any IPFS provider`, {
      reason: 'CONTENT_NOT_FOUND',
    });
  if (real.every((k) => k === 'timeout'))
    return new AppError('GATEWAY_TIMEOUT', `Every IPFS provider timed out fetching ${what}`, {
      reason: 'IPFS_TIMEOUT',
    });
  return new AppError('BAD_GATEWAY', `Every IPFS provider failed fetching ${what}`, {
    reason: 'IPFS_PROVIDERS_FAILED',
  });
}

/** a ProviderError anywhere in a library's wrapping (unixfs and helia wrap block errors) */
export function findProviderError(err: unknown): ProviderError | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    if (e instanceof ProviderError) return e;
    queue.push((e as { cause?: unknown }).cause);
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return undefined;
}

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const name = (err as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

/** one attempt's deadline joined with the caller's signal */
export function attemptSignal(timeoutMs: number, outer?: AbortSignal): AbortSignal {
  const t = AbortSignal.timeout(timeoutMs);
  return outer ? AbortSignal.any([outer, t]) : t;
}

/** The first chunk is pulled before anything is promised to a client, so a dead source fails early. */
export async function primed(iterable: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const it = iterable[Symbol.asyncIterator]();
  const first = await it.next();
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      while (true) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
}
