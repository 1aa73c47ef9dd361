import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CarBlockIterator } from '@ipld/car';
import * as dagCbor from '@ipld/dag-cbor';
import * as dagPb from '@ipld/dag-pb';
import { createUnsafe } from 'multiformats/block';
import { equals } from 'multiformats/bytes';
import type { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { identity } from 'multiformats/hashes/identity';
import { sha256 } from 'multiformats/hashes/sha2';
import { AppError, badRequest } from '../shared/errors';
import { createReclaimer } from '../shared/reclaim';
import { importAndPin } from './import-pin';
import { quotaExceeded, remainingBytes } from './quota';
import type { StorageServices } from './runtime';
import { readSpool, tooLarge } from './upload';
import type { VisibilityRequest } from './visibility';

/** the codecs a CAR's blocks may use: those the embedded node can pin through */
const CODECS = new Map<number, { decode(bytes: Uint8Array): unknown }>([
  [raw.code, raw],
  [dagPb.code, dagPb],
  [dagCbor.code, dagCbor],
  [json.code, json],
]);
const HASHERS = new Map<
  number,
  { digest(bytes: Uint8Array): Promise<{ bytes: Uint8Array }> | { bytes: Uint8Array } }
>([[sha256.code, sha256]]);

export interface CarImportResult {
  /** every root, pinned for the caller, with the bytes of its DAG's blocks */
  roots: { cid: string; size: number }[];
  /** distinct blocks the roots need */
  blocks: number;
  /** bytes of those blocks */
  size: number;
}

const key = (cid: CID) => cid.toV1().toString();
const invalidCar = (why: string) => badRequest(`Not a valid CAR: ${why}`, undefined, 'INVALID_CAR');

/** the block's bytes hashed again must give its CID's digest; an identity CID carries its bytes */
async function checkBlock(cid: CID, bytes: Uint8Array) {
  const code = cid.multihash.code;
  if (code === identity.code) {
    if (!equals(cid.multihash.digest, bytes)) throw badBlock(cid);
    return;
  }
  const hasher = HASHERS.get(code);
  if (!hasher)
    throw badRequest(
      `Block ${cid}: hash 0x${code.toString(16)} is not supported`,
      undefined,
      'UNSUPPORTED_CAR_BLOCK',
    );
  const digest = await hasher.digest(bytes);
  if (!equals(digest.bytes, cid.multihash.bytes)) throw badBlock(cid);
}
const badBlock = (cid: CID) =>
  badRequest(
    `Block ${cid} does not match its CID (its bytes hash to something else)`,
    undefined,
    'INVALID_CAR_BLOCK',
  );

/** the CIDs a block links to (its codec decodes it; raw has none) */
function linksOf(cid: CID, bytes: Uint8Array): CID[] {
  const codec = CODECS.get(cid.code);
  if (!codec)
    throw badRequest(
      `Block ${cid}: codec 0x${cid.code.toString(16)} is not supported`,
      undefined,
      'UNSUPPORTED_CAR_BLOCK',
    );
  if (cid.code === raw.code) return [];
  try {
    const block = createUnsafe({ cid, bytes, codec: codec as never });
    return [...block.links()].map(([, link]) => link as CID);
  } catch {
    throw badRequest(`Block ${cid} cannot be decoded as its codec says`, undefined, 'INVALID_CAR_BLOCK');
  }
}

/**
 * POST /ipfs/car (docs/storage.md, "CAR import"): the CAR is spooled to disk (MAX_FILE_SIZE, 413 as soon
 * as it is crossed), then read block by block: each block is hashed against its CID, its links noted,
 * and every root's DAG must be whole in the CAR (400 INCOMPLETE_CAR). Only then does the node store the
 * blocks and the roots get pinned and recorded for the caller, `pinned`, in importAndPin's order (GC
 * lease, visibility, the roots' DAG bytes reserved against the quota, privacy hold, import, record). A
 * refused CAR leaves nothing in the node and no record. Memory: the set of block CIDs and links, never
 * the blocks.
 */
export async function importCar(
  svc: StorageServices,
  params: {
    userId: string;
    owner: string;
    source: AsyncIterable<Uint8Array>;
    signal?: AbortSignal;
    visibility?: VisibilityRequest | undefined;
  },
): Promise<CarImportResult> {
  const max = svc.config.storage.maxFileSize;
  // a CAR's bytes are more than what its roots will count (headers, CIDs, blocks no root needs), so the
  // body cannot be cut at the quota; a user with nothing left is refused before it is read ("Quotas")
  const quota = await remainingBytes(svc, { userId: params.userId });
  if (quota.remaining <= 0) throw quotaExceeded('PAYLOAD_TOO_LARGE', quota.used, quota.limit);
  const spooled = path.join(svc.storage.spoolDir, `${randomUUID()}.car`);
  try {
    let received = 0;
    const reclaim = createReclaimer();
    const counted = async function* () {
      for await (const chunk of params.source) {
        received += chunk.length;
        reclaim(chunk.length);
        if (received > max) throw tooLarge(max);
        yield chunk;
      }
    };
    await pipeline(counted(), createWriteStream(spooled), { signal: params.signal });
    if (received === 0) throw badRequest('The body is empty: send a CAR', undefined, 'CAR_REQUIRED');

    const { roots, sizes, links } = await scanCar(spooled);
    const needed = new Map<string, number>();
    const result: CarImportResult['roots'] = [];
    for (const root of roots) {
      let size = 0;
      const seen = new Set<string>();
      const stack = [root];
      while (stack.length) {
        const cid = stack.pop()!;
        const k = key(cid);
        if (seen.has(k) || cid.multihash.code === identity.code) continue;
        seen.add(k);
        const bytes = sizes.get(k);
        if (bytes === undefined)
          throw badRequest(
            `The CAR is incomplete: block ${k} of root ${key(root)} is missing`,
            undefined,
            'INCOMPLETE_CAR',
          );
        size += bytes;
        needed.set(k, bytes);
        stack.push(...(links.get(k) ?? []));
      }
      result.push({ cid: key(root), size });
    }
    const total = [...needed.values()].reduce((a, b) => a + b, 0);
    // every block checked: each root's record counts its DAG's bytes, reserved before the node stores anything
    const countedBytes = result.reduce((n, r) => n + r.size, 0);
    return await importAndPin(
      svc,
      { userId: params.userId, owner: params.owner, bytes: countedBytes, visibility: params.visibility },
      async (hold) => {
        await svc.storage.node.importCar(() => readSpool(spooled), { hold });
        return {
          roots: roots.map((cid, i) => ({
            cid,
            filename: null,
            mimetype: null,
            size: result[i]!.size,
            storedBytes: result[i]!.size,
          })),
          result: { roots: result, blocks: needed.size, size: total },
        };
      },
    );
  } finally {
    await rm(spooled, { force: true });
  }
}

/** one pass over the spooled CAR: roots, each block checked, its size and links */
async function scanCar(file: string) {
  let reader: CarBlockIterator;
  try {
    reader = await CarBlockIterator.fromIterable(readSpool(file));
  } catch (err) {
    throw invalidCar((err as Error).message);
  }
  const roots = [...new Map((await reader.getRoots()).map((r) => [key(r), r])).values()];
  if (!roots.length) throw invalidCar('it names no root');
  const sizes = new Map<string, number>();
  const links = new Map<string, CID[]>();
  const it = reader[Symbol.asyncIterator]();
  while (true) {
    let next: IteratorResult<{ cid: CID; bytes: Uint8Array }>;
    try {
      next = await it.next();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw invalidCar((err as Error).message);
    }
    if (next.done) break;
    const { cid, bytes } = next.value;
    await checkBlock(cid, bytes);
    const k = key(cid);
    if (sizes.has(k)) continue;
    sizes.set(k, bytes.length);
    const out = linksOf(cid, bytes);
    if (out.length) links.set(k, out);
  }
  return { roots, sizes, links };
}
