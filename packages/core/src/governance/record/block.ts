/**
 * The blocks of a proposal record (docs/governance.md, "The proposal record"): dag-cbor, addressed by CIDv1
 * with a sha2-256 multihash. Encoding and hashing come from @ipld/dag-cbor and multiformats.
 */

import * as dagCbor from '@ipld/dag-cbor';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

export { CID };

export interface Block {
  cid: CID;
  bytes: Uint8Array;
}

/** a value as one dag-cbor block (deterministic: the same value always gives the same CID) */
export async function encodeBlock(value: unknown): Promise<Block> {
  const bytes = dagCbor.encode(value);
  return { cid: CID.createV1(dagCbor.code, await sha256.digest(bytes)), bytes };
}

export function decodeBlock<T = unknown>(bytes: Uint8Array): T {
  return dagCbor.decode<T>(bytes);
}

/** whether `bytes` are what `cid` names: a dag-cbor CID with a sha2-256 multihash of exactly these bytes */
export async function blockMatches(cid: CID, bytes: Uint8Array): Promise<boolean> {
  if (cid.code !== dagCbor.code || cid.multihash.code !== sha256.code) return false;
  const digest = await sha256.digest(bytes);
  const a = digest.digest;
  const b = cid.multihash.digest;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
