import { generateKeyPairSync } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ed25519Attestor, verifyAttestation } from './attest';
import { type Block, blockMatches, decodeBlock, encodeBlock } from './block';
import { buildProposalRecord } from './build';
import { ballotLeaf, ballotLeafBlock, type RecordBody, type RecordRoot } from './format';
import { inclusionProof, MerkleTreeBuilder, merkleRoot, proofFromTree, verifyInclusion } from './merkle';
import { recordAttestor } from './publisher';
import { delegatedWeights } from './recount';
import { fixtureAddress, recordFixture } from './testing';

const leaves = (n: number, salt = '') =>
  Promise.all(Array.from({ length: n }, (_, i) => encodeBlock({ i, salt })));

async function collect(gen: AsyncGenerator<Block, unknown>) {
  const blocks: Block[] = [];
  for await (const b of gen) blocks.push(b);
  return blocks;
}

describe('the ballot tree', () => {
  it('proves every leaf of trees of 1 to 33 leaves, and nothing else', async () => {
    const other = (await leaves(5, 'other')).map((b) => b.cid);
    for (let n = 1; n <= 33; n++) {
      const cids = (await leaves(n)).map((b) => b.cid);
      const root = (await merkleRoot(cids))!;
      for (let i = 0; i < n; i++) {
        const proof = await inclusionProof(cids, i);
        expect(proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)) + 1);
        expect(await verifyInclusion(root, cids[i]!, proof)).toBe(true);
        expect(await verifyInclusion(root, other[i % 5]!, proof)).toBe(false);
      }
      if (n > 1) expect(await verifyInclusion(root, cids[0]!, await inclusionProof(cids, 1))).toBe(false);
    }
  });

  it('emits each inner node once, n - 1 of them, the root last', async () => {
    const cids = (await leaves(13)).map((b) => b.cid);
    const tree = new MerkleTreeBuilder();
    const nodes: Block[] = [];
    for (const c of cids) nodes.push(...(await tree.push(c)));
    const { root, blocks } = await tree.finish();
    nodes.push(...blocks);
    expect(nodes).toHaveLength(12);
    expect(nodes.at(-1)!.cid.equals(root!)).toBe(true);
    for (const n of nodes) expect(await blockMatches(n.cid, n.bytes)).toBe(true);
  });

  it('gives the same proofs read from the stored tree, one node per level', async () => {
    for (let n = 1; n <= 40; n++) {
      const cids = (await leaves(n)).map((b) => b.cid);
      const tree = new MerkleTreeBuilder();
      const store = new Map<string, Uint8Array>();
      for (const c of cids) for (const b of await tree.push(c)) store.set(b.cid.toString(), b.bytes);
      const { root, blocks } = await tree.finish();
      for (const b of blocks) store.set(b.cid.toString(), b.bytes);
      let reads = 0;
      const getNode = async (cid: { toString(): string }) => {
        reads++;
        return decodeBlock<{ l: never; r: never }>(store.get(cid.toString())!);
      };
      for (let i = 0; i < n; i++) {
        reads = 0;
        const got = await proofFromTree(getNode, root!, n, i);
        const want = await inclusionProof(cids, i);
        expect(got.leaf.equals(cids[i]!)).toBe(true);
        expect(got.proof.map((s) => `${s.side}${s.cid}`)).toEqual(want.map((s) => `${s.side}${s.cid}`));
        expect(reads).toBe(want.length);
      }
    }
  });

  it('has no root without leaves', async () => {
    expect(await merkleRoot([])).toBeNull();
    await expect(inclusionProof([], 0)).rejects.toThrow(RangeError);
  });
});

describe('ballotLeaf', () => {
  it('takes what is fixed at the cast, so the receipt never changes', async () => {
    const signer = privateKeyToAccount(generatePrivateKey());
    const f = await recordFixture({
      electorate: [
        { address: signer.address, weight: 5n },
        { address: fixtureAddress(2), weight: 3n },
      ],
      votes: [
        { voter: signer.address, choice: 'For', signer, comment: 'yes' },
        { voter: fixtureAddress(2), choice: 'Against' },
      ],
    });
    const [signed, session] = f.votes;
    const leaf = ballotLeaf(signed!);
    expect(leaf).toMatchObject({
      voter: signer.address.toLowerCase(),
      choice: 'For',
      ownWeight: '5',
      comment: 'yes',
    });
    expect(leaf.signed?.message).toEqual({
      daoId: signed!.daoId,
      proposalId: signed!.proposalId,
      choice: 'For',
      comment: 'yes',
      timestamp: signed!.signedTimestamp,
    });
    expect(ballotLeaf(session!).signed).toBeNull();
    // the same stored vote gives the same CID; a later weight change or replacement is not in the leaf
    const a = await ballotLeafBlock(session!);
    const b = await ballotLeafBlock({ ...session!, createdAt: new Date(session!.createdAt) });
    expect(a.cid.equals(b.cid)).toBe(true);
    // votes from before order_key: the signed timestamp, else the second of the cast
    expect(ballotLeaf({ ...session!, orderKey: null }).orderKey).toBe(
      Math.floor(session!.createdAt.getTime() / 1000),
    );
  });
});

describe('delegatedWeights', () => {
  it('gives the worked example of docs/governance.md ("Counting")', () => {
    const w = [10n, 20n, 5n, 15n, 10n, 5n, 10n, 10n, 5n, 10n];
    const names = 'ABCDEFGHIJ'.split('');
    const delegate: Record<string, string> = { C: 'A', D: 'A', E: 'B', F: 'B' };
    const electorate = new Map(names.map((n, i) => [n, { weight: w[i]!, delegate: delegate[n] ?? null }]));
    const got = delegatedWeights(electorate, new Set(['D', 'A', 'B', 'E', 'G']));
    expect(Object.fromEntries(got)).toEqual({ A: 5n, B: 5n });
  });
});

describe('buildProposalRecord', () => {
  it('streams a record whose every link is among its blocks, the root last', async () => {
    const f = await recordFixture({
      electorate: Array.from({ length: 2_500 }, (_, i) => ({
        address: fixtureAddress(i + 1),
        weight: BigInt(i % 7) + 1n,
      })),
      votes: [
        { voter: fixtureAddress(1), choice: 'For' },
        { voter: fixtureAddress(2), choice: 'Against' },
        { voter: fixtureAddress(1), choice: 'Against' },
        { voter: fixtureAddress(3), choice: 'Abstain' },
      ],
    });
    const { privateKey } = generateKeyPairSync('ed25519');
    const gen = buildProposalRecord({ ...f, attest: ed25519Attestor(privateKey) });
    const blocks = await collect(gen);
    const byCid = new Map(blocks.map((b) => [b.cid.toString(), b]));
    for (const b of blocks) expect(await blockMatches(b.cid, b.bytes)).toBe(true);
    const root = decodeBlock<RecordRoot>(blocks.at(-1)!.bytes);
    expect(root.format).toBe('plenum-proposal-record/1');
    expect(verifyAttestation(root.attestation!, root.body.bytes)).toBe(true);
    expect(verifyAttestation(root.attestation!, blocks[0]!.cid.bytes)).toBe(false);
    const body = decodeBlock<RecordBody>(byCid.get(root.body.toString())!.bytes);
    expect(body.electorate).toMatchObject({ voters: 2_500, count: 2_500 });
    expect(body.ballots.count).toBe(3);
    expect(body.replaced.count).toBe(1);
    expect(body.results).not.toHaveProperty('updatedAt');
    expect(body.results.status).toBe(body.proposal.status);
    // every link resolves: walk the electorate tree down to its 3 pages
    const pages: unknown[] = [];
    const walk = (cid: { toString(): string }) => {
      const v = decodeBlock<{ l?: typeof cid; r?: typeof cid; entries?: unknown[] }>(
        byCid.get(cid.toString())!.bytes,
      );
      if (v.entries) pages.push(v);
      else {
        walk(v.l!);
        walk(v.r!);
      }
    };
    walk(body.electorate.pages!);
    expect(pages).toHaveLength(3);
  });

  it('reads its sources lazily: a block comes out before the whole electorate is read', async () => {
    const f = await recordFixture({
      electorate: [{ address: fixtureAddress(1), weight: 1n }],
      votes: [{ voter: fixtureAddress(1), choice: 'For' }],
    });
    let read = 0;
    async function* electorate() {
      for (let i = 1; i <= 5_000; i++) {
        read++;
        yield { address: fixtureAddress(i), weight: '1', delegateAddress: null };
      }
    }
    const gen = buildProposalRecord({ ...f, electorate: electorate() });
    await gen.next();
    expect(read).toBe(1_000);
    await gen.return(undefined as never);
  });

  it('refuses sources out of order and hidden results', async () => {
    const f = await recordFixture({
      electorate: [
        { address: fixtureAddress(1), weight: 1n },
        { address: fixtureAddress(2), weight: 1n },
      ],
      votes: [
        { voter: fixtureAddress(1), choice: 'For' },
        { voter: fixtureAddress(2), choice: 'For' },
      ],
    });
    await expect(
      collect(buildProposalRecord({ ...f, electorate: [...(f.electorate as never[])].reverse() })),
    ).rejects.toThrow(/electorate out of order/);
    await expect(
      collect(buildProposalRecord({ ...f, ballots: [...(f.ballots as never[])].reverse() })),
    ).rejects.toThrow(/ballots out of order/);
    await expect(
      collect(buildProposalRecord({ ...f, results: { ...f.results, hidden: true } })),
    ).rejects.toThrow(/revealed/);
  });
});

describe('recordAttestor', () => {
  it('derives one Ed25519 key from the secret key: the same for every instance, another for another secret', () => {
    const secret = new TextEncoder().encode('a secret key of at least 32 characters!!');
    const a = recordAttestor(secret)(new Uint8Array([1]));
    const b = recordAttestor(secret)(new Uint8Array([1]));
    expect(Buffer.from(a.publicKey).equals(Buffer.from(b.publicKey))).toBe(true);
    expect(verifyAttestation(a, new Uint8Array([1]))).toBe(true);
    const other = recordAttestor(new TextEncoder().encode('another secret key of 32 characters!!!'))(
      new Uint8Array([1]),
    );
    expect(Buffer.from(other.publicKey).equals(Buffer.from(a.publicKey))).toBe(false);
  });
});
