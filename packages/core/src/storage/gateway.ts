import { unixfs } from '@helia/unixfs';
import type { CID } from 'multiformats/cid';
import { sha256, sha512 } from 'multiformats/hashes/sha2';
import {
  type AttemptKind,
  attemptSignal,
  type CallOptions,
  type ContentSource,
  isAbort,
  ProviderError,
} from './provider';

const MAX_BLOCK_BYTES = 4 * 1024 * 1024;
const IDENTITY = 0x00;
type Hasher = { digest(b: Uint8Array): Promise<{ digest: Uint8Array }> | { digest: Uint8Array } };
const HASHERS: ReadonlyMap<number, Hasher> = new Map<number, Hasher>([
  [sha256.code, sha256],
  [sha512.code, sha512],
]);

export function normalizeGatewayUrl(url: string): string {
  return url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/ipfs$/, '');
}

/**
 * Reads through public HTTP gateways, trustlessly: every block is requested raw
 * (`application/vnd.ipld.raw`) and hashed against its CID before it is believed; files are assembled
 * from verified blocks with UnixFS. Gateways are tried in the configured order, each attempt with its
 * own IPFS_TIMEOUT; a gateway that failed is tried last for the rest of that read.
 */
export class GatewayProvider {
  readonly urls: string[];
  constructor(
    urls: string[],
    readonly timeoutMs: number,
  ) {
    this.urls = urls.map(normalizeGatewayUrl).filter(Boolean);
  }

  get configured(): boolean {
    return this.urls.length > 0;
  }

  /** `{first gateway}/ipfs/{cid}[/path]`, or null when no gateway is configured */
  imageUrl(cid: string, path = ''): string | null {
    const base = this.urls[0];
    if (!base) return null;
    return `${base}/ipfs/${cid}${path ? `/${path}` : ''}`;
  }

  /** one verified block, trying gateways in `order` (reordered in place on failure) */
  async fetchBlock(
    cid: CID,
    options: CallOptions = {},
    order: string[] = [...this.urls],
  ): Promise<Uint8Array> {
    if (cid.multihash.code === IDENTITY) return cid.multihash.digest;
    const kinds: AttemptKind[] = [];
    const errors: string[] = [];
    for (const gw of [...order]) {
      options.signal?.throwIfAborted();
      try {
        return await this.attempt(gw, cid, options.signal);
      } catch (err) {
        if (options.signal?.aborted) throw err;
        const kind = err instanceof ProviderError ? err.kind : 'error';
        kinds.push(kind);
        errors.push(`${gw}: ${(err as Error).message}`);
        order.splice(order.indexOf(gw), 1);
        order.push(gw);
      }
    }
    const kind: AttemptKind = kinds.includes('not_found')
      ? 'not_found'
      : kinds.length && kinds.every((k) => k === 'timeout')
        ? 'timeout'
        : 'error';
    throw new ProviderError(
      kind,
      'gateway',
      `block ${cid}: ${errors.join('; ') || 'no gateway configured'}`,
      kinds,
    );
  }

  private async attempt(gw: string, cid: CID, outer: AbortSignal | undefined): Promise<Uint8Array> {
    const signal = attemptSignal(this.timeoutMs, outer);
    let res: Response;
    try {
      res = await fetch(`${gw}/ipfs/${cid}?format=raw`, {
        headers: { accept: 'application/vnd.ipld.raw' },
        signal,
      });
    } catch (err) {
      throw new ProviderError(isAbort(err, signal) ? 'timeout' : 'error', gw, (err as Error).message);
    }
    if (res.status === 404 || res.status === 410) {
      await res.body?.cancel();
      throw new ProviderError('not_found', gw, `HTTP ${res.status}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ProviderError(res.status === 504 ? 'timeout' : 'error', gw, `HTTP ${res.status}`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(res, MAX_BLOCK_BYTES);
    } catch (err) {
      throw new ProviderError(isAbort(err, signal) ? 'timeout' : 'error', gw, (err as Error).message);
    }
    await verifyBlock(cid, bytes, gw);
    return bytes;
  }

  /** a UnixFS file read from verified gateway blocks */
  async open(cid: CID, options: CallOptions = {}): Promise<ContentSource> {
    if (!this.configured) throw new ProviderError('absent', 'gateway', 'no gateway configured', []);
    const order = [...this.urls];
    let root: { cid: string; bytes: Uint8Array } | undefined;
    const fetchBlock = async (c: CID, signal?: AbortSignal) => {
      if (root?.cid === c.toString()) return root.bytes;
      const bytes = await this.fetchBlock(c, { signal }, order);
      root ??= { cid: c.toString(), bytes };
      return bytes;
    };
    const fs = unixfs({
      blockstore: {
        async *get(c: CID, opts?: { signal?: AbortSignal }) {
          yield await fetchBlock(c, opts?.signal ?? options.signal);
        },
        put: async (c: CID) => c,
        has: async () => false,
      },
    });
    const stat = await fs.stat(cid, { signal: options.signal });
    return { size: Number(stat.size), chunks: fs.cat(cid, { signal: options.signal }) };
  }
}

export async function verifyBlock(cid: CID, bytes: Uint8Array, source: string) {
  const hasher = HASHERS.get(cid.multihash.code);
  if (!hasher)
    throw new ProviderError('error', source, `unsupported hash 0x${cid.multihash.code.toString(16)}`);
  const digest = (await hasher.digest(bytes)).digest;
  const expected = cid.multihash.digest;
  if (digest.length !== expected.length || !digest.every((b, i) => b === expected[i])) {
    throw new ProviderError('error', source, 'returned bytes that do not match the CID');
  }
}

async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) throw new Error('block too large');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (res.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw new Error('block too large');
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
