import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { car, depthFirstWalker, type ExportCarOptions, SubgraphExporter } from '@helia/car';
import { type DbOrTx, pins } from '@plenum/db';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { eq } from 'drizzle-orm';
import { createHeliaLight } from 'helia';
import { CID } from 'multiformats/cid';
import { CAR_CODECS } from './codecs';

/**
 * The embedded IPFS node's pinned content as one CAR file (CARv1), for `ipfs dag import` into Kubo or
 * as a backup (docs/operations.md, "Moving off the embedded defaults"). Read from the node's files
 * under DATA_DIR/ipfs, offline: the caller makes sure the server is stopped.
 */

/** whether dir holds the embedded node's stores (createEmbeddedNode's layout) */
export function hasEmbeddedNode(dir: string): boolean {
  return existsSync(path.join(dir, 'blocks')) && existsSync(path.join(dir, 'datastore'));
}

/** The CIDs the pin records say are pinned (status `pinned`), as stored: CIDv1 base32. */
export async function recordedPinnedCids(svc: { db: DbOrTx }): Promise<string[]> {
  const rows = await svc.db.selectDistinct({ cid: pins.cid }).from(pins).where(eq(pins.status, 'pinned'));
  return rows.map((r) => r.cid);
}

export interface PinsCarOptions {
  /** the embedded node's directory (DATA_DIR/ipfs) */
  dir: string;
  /** where the CAR bytes go; not ended here */
  out: NodeJS.WritableStream;
  /**
   * CIDs the pin records hold as pinned (recordedPinnedCids): they become roots too when the node holds
   * their whole DAG without a pin of its own, and are reported otherwise
   */
  recorded?: string[];
  signal?: AbortSignal;
}

export interface PinsCarResult {
  /** the CAR's roots: every CID pinned on the node, and the recorded ones it holds whole; sorted */
  roots: string[];
  /** roots that came from the pin records only (the node held their blocks but no pin) */
  recordedOnly: string[];
  /** recorded pins whose blocks are not (all) on the node: not in the CAR */
  missing: { cid: string; reason: string }[];
  /** distinct blocks written */
  blocks: number;
  /** bytes written */
  bytes: number;
}

export class NothingPinnedError extends Error {
  override readonly name = 'NothingPinnedError';
}

/**
 * Writes one CARv1 whose roots are every pinned CID and whose blocks are every block of each root's
 * DAG, each block once. Kubo's `ipfs dag import` stores the blocks and pins the roots. Throws
 * NothingPinnedError (before writing anything) when there is no root: Kubo refuses a CAR without one.
 */
export async function writePinsCar(options: PinsCarOptions): Promise<PinsCarResult> {
  const { dir, out, signal } = options;
  const blockstore = new FsBlockstore(path.join(dir, 'blocks'));
  const datastore = new FsDatastore(path.join(dir, 'datastore'));
  // no block brokers: nothing is fetched, a missing block is an error
  const helia = createHeliaLight({ blockstore, datastore, blockBrokers: [], codecs: CAR_CODECS });
  await helia.start();
  try {
    const roots = new Map<string, CID>();
    for await (const pin of helia.pins.ls({ signal })) roots.set(pin.cid.toString(), pin.cid);
    const pinnedMultihashes = new Set([...roots.values()].map((c) => key(c.multihash.bytes)));

    const recordedOnly: string[] = [];
    const missing: PinsCarResult['missing'] = [];
    for (const text of options.recorded ?? []) {
      let cid: CID;
      try {
        cid = CID.parse(text);
      } catch {
        missing.push({ cid: text, reason: 'not a CID' });
        continue;
      }
      // the node pins by multihash: a record in another CID version of a pinned one is covered
      if (roots.has(text) || pinnedMultihashes.has(key(cid.multihash.bytes))) continue;
      try {
        // every block of the DAG, read once here to know it is whole before it becomes a root
        const walker = depthFirstWalker()({ blockstore: helia.blockstore, getCodec: helia.getCodec });
        for await (const _ of walker.walk(cid, { offline: true, signal } as { signal?: AbortSignal })) {
          // drained
        }
        roots.set(text, cid);
        recordedOnly.push(text);
      } catch (err) {
        missing.push({ cid: text, reason: (err as Error).message });
      }
    }
    if (roots.size === 0) throw new NothingPinnedError(`nothing is pinned on the embedded node in ${dir}`);

    const sorted = [...roots.keys()].sort();
    const written = new Set<string>();
    // an exact filter (@helia/car suggests a cuckoo filter, whose false positives would drop blocks)
    const blockFilter: NonNullable<ExportCarOptions['blockFilter']> = {
      has: (item) => written.has(key(item)),
      add: (item) => {
        written.add(key(item));
      },
    };
    let bytes = 0;
    const chunks = car(helia).export(
      sorted.map((c) => roots.get(c)!),
      // every block each root links to, whatever the codec (not only what a UnixFS read would touch)
      { offline: true, exporter: new SubgraphExporter(), blockFilter, signal },
    );
    for await (const chunk of chunks) {
      bytes += chunk.byteLength;
      if (!out.write(chunk)) await once(out, 'drain', { signal });
    }
    return { roots: sorted, recordedOnly, missing, blocks: written.size, bytes };
  } finally {
    await helia.stop();
  }
}

const key = (item: Uint8Array | string) =>
  typeof item === 'string'
    ? item
    : Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('base64');
