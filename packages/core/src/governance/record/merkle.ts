/**
 * The binary Merkle tree of a record's ballots and electorate pages (docs/governance.md, "Ballots and
 * their Merkle tree"): inner nodes are dag-cbor blocks `{ l, r }`, so a node's hash is its CID. Built in one
 * pass as a binary counter (log2(n) entries held), the leftover perfect subtrees joined from the right.
 */

import { type Block, type CID, encodeBlock } from './block';

export interface ProofStep {
  /** the side the sibling sits on */
  side: 'l' | 'r';
  cid: CID;
}

interface Entry {
  height: number;
  cid: CID;
  /** holds the leaf whose proof is being taken */
  marked: boolean;
}

/** builds a tree leaf by leaf; every inner node comes back as a block to store */
export class MerkleTreeBuilder {
  private readonly stack: Entry[] = [];
  private count = 0;
  /** the proof of the marked leaf, bottom first */
  readonly proof: ProofStep[] = [];

  get leaves(): number {
    return this.count;
  }

  async push(leaf: CID, marked = false): Promise<Block[]> {
    this.count++;
    this.stack.push({ height: 0, cid: leaf, marked });
    const blocks: Block[] = [];
    while (this.stack.length >= 2 && this.top(0).height === this.top(1).height) {
      blocks.push(await this.join());
    }
    return blocks;
  }

  /** the root (null without leaves) and the last inner nodes */
  async finish(): Promise<{ root: CID | null; blocks: Block[] }> {
    const blocks: Block[] = [];
    while (this.stack.length >= 2) blocks.push(await this.join());
    return { root: this.stack[0]?.cid ?? null, blocks };
  }

  private top(i: number): Entry {
    return this.stack[this.stack.length - 1 - i]!;
  }

  private async join(): Promise<Block> {
    const r = this.stack.pop()!;
    const l = this.stack.pop()!;
    const block = await encodeBlock({ l: l.cid, r: r.cid });
    if (l.marked) this.proof.push({ side: 'r', cid: r.cid });
    if (r.marked) this.proof.push({ side: 'l', cid: l.cid });
    this.stack.push({ height: l.height + 1, cid: block.cid, marked: l.marked || r.marked });
    return block;
  }
}

/** the tree's root over `leaves` in order (null without leaves) */
export async function merkleRoot(leaves: Iterable<CID>): Promise<CID | null> {
  const tree = new MerkleTreeBuilder();
  for (const leaf of leaves) await tree.push(leaf);
  return (await tree.finish()).root;
}

/** the inclusion proof of the leaf at `index` in the tree over `leaves` */
export async function inclusionProof(leaves: readonly CID[], index: number): Promise<ProofStep[]> {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`no leaf ${index} among ${leaves.length}`);
  const tree = new MerkleTreeBuilder();
  for (const [i, leaf] of leaves.entries()) await tree.push(leaf, i === index);
  await tree.finish();
  return tree.proof;
}

/** whether `proof` leads from `leaf` to `root` */
export async function verifyInclusion(root: CID, leaf: CID, proof: readonly ProofStep[]): Promise<boolean> {
  let at = leaf;
  for (const step of proof) {
    const node = step.side === 'l' ? { l: step.cid, r: at } : { l: at, r: step.cid };
    at = (await encodeBlock(node)).cid;
  }
  return at.equals(root);
}

/**
 * The proof of the leaf at `index` read from a stored tree of `count` leaves, one block per level: the
 * tree's shape follows from `count` (perfect subtrees for its binary digits, largest first, joined from the
 * right), so no leaf list is needed. `getNode` returns an inner node's links.
 */
export async function proofFromTree(
  getNode: (cid: CID) => Promise<{ l: CID; r: CID }>,
  root: CID,
  count: number,
  index: number,
): Promise<{ leaf: CID; proof: ProofStep[] }> {
  if (!Number.isInteger(index) || index < 0 || index >= count)
    throw new RangeError(`no leaf ${index} among ${count}`);
  const sizes: number[] = [];
  for (let bit = 2 ** Math.floor(Math.log2(count)); bit >= 1; bit /= 2) if (count & bit) sizes.push(bit);
  const down: ProofStep[] = [];
  let at = root;
  let i = index;
  let size = sizes[sizes.length - 1]!;
  // along the right spine: each node joins one perfect subtree (left) with the rest (right)
  for (const [k, s] of sizes.entries()) {
    if (k === sizes.length - 1) break;
    const node = await getNode(at);
    if (i < s) {
      down.push({ side: 'r', cid: node.r });
      at = node.l;
      size = s;
      break;
    }
    down.push({ side: 'l', cid: node.l });
    at = node.r;
    i -= s;
  }
  // inside a perfect subtree: halves
  for (; size > 1; size /= 2) {
    const node = await getNode(at);
    if (i < size / 2) {
      down.push({ side: 'r', cid: node.r });
      at = node.l;
    } else {
      down.push({ side: 'l', cid: node.l });
      at = node.r;
      i -= size / 2;
    }
  }
  return { leaf: at, proof: down.reverse() };
}
