/**
 * Test helpers for proposal record CARs (docs/governance.md, "The proposal record"): read one into its
 * decoded blocks, walk a record tree, and rewrite blocks the way a forger would, every link above a
 * changed block rewritten up to a new root (using core's own dag-cbor encoding and @ipld/car).
 */

import { CarReader, CarWriter } from '@ipld/car';
import {
  type Attestor,
  type Block,
  CID,
  decodeBlock,
  encodeBlock,
  type RecordBody,
  type RecordRoot,
} from '@plenum/core/governance/record/index';

/** the CAR's blocks decoded, by CID, with its root */
export async function readCar(car: Uint8Array) {
  const reader = await CarReader.fromBytes(car);
  const [root] = await reader.getRoots();
  const values = new Map<string, unknown>();
  for await (const b of reader.blocks()) values.set(b.cid.toString(), decodeBlock(b.bytes));
  const get = <T>(cid: CID): T => {
    const v = values.get(cid.toString());
    if (v === undefined) throw new Error(`block ${cid} is not in the CAR`);
    return v as T;
  };
  const rootBlock = get<RecordRoot>(root as unknown as CID);
  return { root: root!.toString(), values, get, body: get<RecordBody>(rootBlock.body) };
}

/** the leaves of a record tree (inner nodes are `{ l, r }`), in order */
export function leavesOf<T>(get: <V>(cid: CID) => V, root: CID | null): T[] {
  const out: T[] = [];
  const walk = (cid: CID) => {
    const v = get<{ l?: CID; r?: CID }>(cid);
    if (v.l && v.r && Object.keys(v).length === 2) {
      walk(v.l);
      walk(v.r);
    } else out.push(v as T);
  };
  if (root) walk(root);
  return out;
}

/**
 * the CAR rebuilt with `edit` applied to its blocks (a value returned replaces the block's), every link
 * above a changed block rewritten up to a new root; `resign` signs the new body as the operator would
 */
export async function rewriteCar(
  car: Uint8Array,
  edit: (value: Record<string, unknown>) => Record<string, unknown> | undefined,
  resign?: Attestor,
) {
  const { root, get } = await readCar(car);
  const out: Block[] = [];
  const done = new Map<string, CID>();
  const relink = async (v: unknown): Promise<unknown> => {
    const cid = CID.asCID(v);
    if (cid) return put(cid);
    if (Array.isArray(v)) {
      // one at a time: a block linked twice is rewritten once
      const a: unknown[] = [];
      for (const x of v) a.push(await relink(x));
      return a;
    }
    if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = await relink(x);
      return o;
    }
    return v;
  };
  async function put(cid: CID): Promise<CID> {
    const known = done.get(cid.toString());
    if (known) return known;
    const value = get<Record<string, unknown>>(cid);
    const next = (await relink(edit(value) ?? value)) as Record<string, unknown>;
    if (resign && cid.toString() === root) next.attestation = resign((next.body as CID).bytes);
    const block = await encodeBlock(next);
    out.push(block);
    done.set(cid.toString(), block.cid);
    return block.cid;
  }
  const newRoot = await put(CID.parse(root));
  const { writer, out: bytes } = CarWriter.create([newRoot as never]);
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    for await (const c of bytes) chunks.push(c);
  })();
  for (const b of out) await writer.put(b as never);
  await writer.close();
  await reading;
  return new Uint8Array(Buffer.concat(chunks));
}
