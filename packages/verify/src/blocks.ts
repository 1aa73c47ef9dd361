/**
 * A record's blocks from a CAR, each checked against its CID (docs/governance.md, "The verifier", check
 * 1). Only blocks whose bytes hash to their CID are kept, so every later read is of authentic bytes.
 */

import { CarReader } from '@ipld/car';
import { blockMatches, type CID, decodeBlock } from '@plenum/core/governance/record/index';
import type { Failures } from './failures';

export class BlockSet {
  private readonly blocks = new Map<string, Uint8Array>();
  constructor(private readonly failures: Failures) {}

  static async fromCar(car: Uint8Array, failures: Failures): Promise<{ set: BlockSet; roots: CID[] }> {
    const reader = await CarReader.fromBytes(car);
    const set = new BlockSet(failures);
    let bad = 0;
    for await (const { cid, bytes } of reader.blocks()) {
      if (await blockMatches(cid as unknown as CID, bytes)) set.blocks.set(cid.toString(), bytes);
      else if (bad++ < 10) failures.add('block', `block ${cid} does not match its CID`);
    }
    if (bad > 10) failures.add('block', `${bad - 10} more blocks do not match their CIDs`);
    return { set, roots: (await reader.getRoots()) as unknown as CID[] };
  }

  get size(): number {
    return this.blocks.size;
  }

  /** the decoded block, or null (and a failure naming `what`) when it is absent or was refused */
  get<T>(cid: CID, what: string): T | null {
    const bytes = this.blocks.get(cid.toString());
    if (!bytes) {
      this.failures.add('block', `${what} (${cid}) is missing or does not match its CID`);
      return null;
    }
    try {
      return decodeBlock<T>(bytes);
    } catch {
      this.failures.add('block', `${what} (${cid}) is not dag-cbor`);
      return null;
    }
  }

  /**
   * The leaves of a record tree in order: inner nodes are `{ l, r }`; anything else is a leaf. Iterative
   * (a tree of a million leaves is about 40 deep, but a forged one could be deeper).
   */
  *leaves<T>(root: CID | null, what: string): Generator<{ cid: CID; value: T }> {
    if (!root) return;
    const stack: CID[] = [root];
    while (stack.length) {
      const cid = stack.pop()!;
      const value = this.get<T & { l?: CID; r?: CID }>(cid, what);
      if (value === null) continue;
      if (isNode(value)) stack.push(value.r, value.l);
      else yield { cid, value };
    }
  }
}

function isNode(v: unknown): v is { l: CID; r: CID } {
  if (!v || typeof v !== 'object') return false;
  const keys = Object.keys(v);
  return keys.length === 2 && 'l' in v && 'r' in v;
}
