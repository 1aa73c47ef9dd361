import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type Block,
  ballotLeafBlock,
  decodeBlock,
  ed25519Attestor,
  encodeBlock,
  inclusionProof,
  type LeafVote,
  type RecordInput,
} from '@plenum/core/governance/record/index';
import {
  type FixtureSpec,
  fixtureAddress,
  type RecordFixture,
  recordFixture,
} from '@plenum/core/governance/record/testing';
import type { VotingSystem as VotingSystemName } from '@plenum/core/governance/systems/index';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { verifyRecord } from '../src/verify';
import { blocksOf, carOf } from './car';

const key = generateKeyPairSync('ed25519').privateKey;
const attest = ed25519Attestor(key);
const publicKey = attest(new Uint8Array()).publicKey;
const wallets = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()));
const [w0, w1, w2] = wallets as [(typeof wallets)[0], (typeof wallets)[0], (typeof wallets)[0]];
const plain = [1, 2, 3].map(fixtureAddress) as [string, string, string];

/** per system: three ballots, over options A, B, C (basic: For, Against, Abstain) */
const BALLOTS: Record<VotingSystemName, [unknown, unknown, unknown]> = {
  'single-choice': ['A', 'B', 'A'],
  basic: ['For', 'Against', 'Abstain'],
  approval: [['A', 'B'], ['C'], []],
  weighted: [{ A: 2, B: 1 }, { C: 3 }, { A: 1 }],
  quadratic: [{ A: 4 }, { B: 1, C: 1 }, { A: 1, C: 3 }],
  'ranked-choice': [['A', 'B'], ['C', 'B', 'A'], ['B']],
};

/** signed and session voters, one vote change; the six voters' weights 10, 20, 5, 15, 10, 5 */
function spec(system: VotingSystemName, extra: Partial<FixtureSpec> = {}): FixtureSpec {
  const [a, b, c] = BALLOTS[system];
  const voters = [w0.address, w1.address, w2.address, ...plain];
  return {
    system,
    options: ['A', 'B', 'C'],
    electorate: voters.map((address, i) => ({ address, weight: [10n, 20n, 5n, 15n, 10n, 5n][i]! })),
    votes: [
      { voter: w0.address, choice: a as never, signer: w0 },
      { voter: plain[0], choice: b as never },
      { voter: w1.address, choice: c as never, signer: w1, comment: 'first thought' },
      { voter: w1.address, choice: b as never, signer: w1 },
      { voter: plain[1], choice: a as never },
    ],
    ...extra,
  };
}

async function record(s: FixtureSpec, change: (i: RecordFixture) => RecordInput = (i) => i) {
  const input = await recordFixture(s);
  const blocks = await blocksOf(change({ ...input, attest }));
  return { input, blocks, car: await carOf(blocks) };
}

/** the fixture with one voter's counted vote changed */
const patchVote =
  (voter: string, patch: Partial<LeafVote>) =>
  (i: RecordFixture): RecordInput => ({
    ...i,
    ballots: i.ballots.map((v) => (v.voterAddress === voter.toLowerCase() ? { ...v, ...patch } : v)),
  });

const checksOf = async (car: Uint8Array, opts = {}) => {
  const v = await verifyRecord(car, { key: publicKey, ...opts });
  return [...new Set(v.failures.map((f) => f.check))].sort();
};

describe('a record built by the server’s builder verifies', () => {
  for (const system of Object.keys(BALLOTS) as VotingSystemName[]) {
    it(system, async () => {
      const { car } = await record(spec(system));
      const v = await verifyRecord(car, { key: publicKey });
      expect(v.failures).toEqual([]);
      expect(v.ok).toBe(true);
      expect(v.ballots).toMatchObject({ counted: 4, replaced: 1, signed: 3, session: 2 });
    });
  }

  it('with delegations (the worked example of docs/governance.md, "Counting")', async () => {
    const s = spec('single-choice', {
      delegation: true,
      electorate: [
        { address: w0.address, weight: 10n },
        { address: w1.address, weight: 20n },
        { address: plain[0], weight: 5n, delegate: w0.address },
        { address: plain[1], weight: 15n, delegate: w0.address },
        { address: plain[2], weight: 10n, delegate: w1.address },
      ],
      votes: [
        { voter: plain[1], choice: 'B' },
        { voter: w0.address, choice: 'A', signer: w0 },
        { voter: w1.address, choice: 'A', signer: w1 },
      ],
    });
    const { input, car } = await record(s);
    expect(input.results.totalWeight).toBe('60');
    expect(await checksOf(car)).toEqual([]);
  });

  it('without a single vote', async () => {
    const { car } = await record(spec('ranked-choice', { votes: [] }));
    const v = await verifyRecord(car, { key: publicKey });
    expect(v.failures).toEqual([]);
    expect(v).toMatchObject({ status: 'REJECTED', ballots: { counted: 0, replaced: 0 } });
  });

  it('of a token DAO (the snapshot block) and of a cancelled proposal', async () => {
    const snapshot = {
      blockNumber: 42,
      blockHash: `0x${'ab'.repeat(32)}`,
      blockTime: new Date('2029-12-31T23:59:48Z'),
    };
    expect(await checksOf((await record(spec('basic', { snapshot }))).car)).toEqual([]);
    expect(await checksOf((await record(spec('approval', { cancelled: true }))).car)).toEqual([]);
  });

  it('and its receipts prove their ballots; a receipt from another proposal fails', async () => {
    const { input, car } = await record(spec('weighted'));
    const counted = await Promise.all(input.ballots.map((v) => ballotLeafBlock(v)));
    const leaves = counted.map((b) => b.cid);
    const receipt = async (i: number, of = leaves) => ({
      leaf: of[i]!.toString(),
      proof: (await inclusionProof(of, i)).map((s) => ({ side: s.side, cid: s.cid.toString() })),
    });
    for (let i = 0; i < leaves.length; i++)
      expect(await checksOf(car, { receipt: await receipt(i) })).toEqual([]);
    const other = await recordFixture({
      ...spec('weighted'),
      proposalId: '00000000-0000-4000-8000-00000000000c',
    });
    const otherLeaves = await Promise.all(other.ballots.map((v) => ballotLeafBlock(v)));
    expect(
      await checksOf(car, {
        receipt: await receipt(
          1,
          otherLeaves.map((b) => b.cid),
        ),
      }),
    ).toEqual(['receipt']);
  });
});

describe('a tampered record fails, naming what failed', () => {
  it('a block whose bytes are not its CID', async () => {
    const { blocks } = await record(spec('single-choice'));
    const i = blocks.findIndex((b) => 'voteId' in decodeBlock<object>(b.bytes));
    const leaf = decodeBlock<Record<string, unknown>>(blocks[i]!.bytes);
    const forged: Block = { cid: blocks[i]!.cid, bytes: (await encodeBlock({ ...leaf, choice: 'C' })).bytes };
    const car = await carOf(blocks.map((b, j) => (j === i ? forged : b)));
    const v = await verifyRecord(car, { key: publicKey });
    expect(v.failures[0]).toEqual({ check: 'block', message: `block ${forged.cid} does not match its CID` });
    // an incomplete record is not recounted
    expect(v.failures.at(-1)).toEqual({
      check: 'results',
      message: 'not recounted: the record is incomplete',
    });
  });

  it('one session ballot, the record rebuilt and signed around it', async () => {
    const { car } = await record(spec('single-choice'), patchVote(plain[0], { choice: 'C' }));
    // B loses its votes to C: the recount differs, and so does the outcome
    expect(await checksOf(car)).toEqual(['results', 'status']);
  });

  it('one signed ballot', async () => {
    const { car } = await record(
      spec('ranked-choice'),
      patchVote(w0.address, { choice: '["B","A"]', ballot: ['B', 'A'] }),
    );
    expect(await checksOf(car)).toEqual(['results', 'signature']);
  });

  it('one weight', async () => {
    const { car } = await record(spec('quadratic'), patchVote(plain[1], { ownWeight: '11' }));
    expect(await checksOf(car)).toEqual(['results', 'weight']);
  });

  it('one signature', async () => {
    const { input } = await record(spec('approval'));
    const signature = input.ballots.find((v) => v.voterAddress === w0.address.toLowerCase())!.signature!;
    const { car } = await record(
      spec('approval'),
      patchVote(w0.address, { signature: `${signature.slice(0, -4)}0000` }),
    );
    expect(await checksOf(car)).toEqual(['signature']);
  });

  it('one electorate entry', async () => {
    const { car } = await record(spec('basic'), (i) => ({
      ...i,
      electorate: i.electorate.map((e) => (e.address === plain[2] ? { ...e, weight: '6' } : e)),
    }));
    expect(await checksOf(car)).toEqual(['electorate']);
    // the electorate's totals made to agree too: the voter's weight no longer matches
    const { car: car2 } = await record(spec('basic'), (i) => ({
      ...i,
      proposal: { ...i.proposal, eligibleWeight: '66' },
      electorate: i.electorate.map((e) => (e.address === plain[1] ? { ...e, weight: '11' } : e)),
    }));
    expect(await checksOf(car2)).toEqual(['results', 'weight']);
  });

  it('the result, or the status', async () => {
    const { car } = await record(spec('weighted'), (i) => ({
      ...i,
      results: { ...i.results, totalWeight: '1' },
    }));
    expect(await checksOf(car)).toEqual(['results']);
    const { input } = await record(spec('single-choice'));
    const flipped = input.proposal.status === 'PASSED' ? 'REJECTED' : 'PASSED';
    const { car: car2 } = await record(spec('single-choice'), (i) => ({
      ...i,
      proposal: { ...i.proposal, status: flipped },
      results: { ...i.results, status: flipped },
    }));
    expect(await checksOf(car2)).toEqual(['status']);
  });

  it('the attestation: another key, or none', async () => {
    const other = ed25519Attestor(generateKeyPairSync('ed25519').privateKey);
    const { car } = await record(spec('single-choice'), (i) => ({ ...i, attest: other }));
    expect(await checksOf(car)).toEqual(['attestation']);
    expect(await checksOf(car, { key: undefined })).toEqual([]);
    const { car: none } = await record(spec('single-choice'), (i) => ({ ...i, attest: undefined }));
    expect(await checksOf(none)).toEqual(['attestation']);
  });
});

describe('the command line', () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run(join(import.meta.dirname, '../node_modules/.bin/tsx'), [
      join(import.meta.dirname, '../src/cli.ts'),
      ...args,
    ]).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );

  it('prints the verdict and exits 0, or 1 naming what failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plenum-verify-'));
    const good = join(dir, 'good.car');
    const bad = join(dir, 'bad.car');
    await writeFile(good, (await record(spec('single-choice'))).car);
    await writeFile(bad, (await record(spec('single-choice'), patchVote(plain[1], { ownWeight: '11' }))).car);
    const key = Buffer.from(publicKey).toString('hex');
    const ok = await cli([good, '--key', key]);
    expect(ok.out).toContain('VERIFIED');
    expect(ok.code).toBe(0);
    const failed = await cli([bad, '--key', key]);
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/FAILED: \d+ problems?/);
    expect(failed.out).toMatch(/weight: ballot .* counts 11 of its own, the electorate gives 10/);
    expect((await cli([])).code).toBe(2);
  }, 60_000);

  it('checks a receipt file as GET /votes/{voteId}/receipt answers it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plenum-verify-'));
    const { input, car } = await record(spec('ranked-choice'));
    const leaves = (await Promise.all(input.ballots.map((v) => ballotLeafBlock(v)))).map((b) => b.cid);
    const file = join(dir, 'r.car');
    await writeFile(file, car);
    const receiptFile = async (name: string, i: number, leaf = leaves[i]!) => {
      const proof = (await inclusionProof(leaves, i)).map((s) => ({ side: s.side, cid: s.cid.toString() }));
      const at = join(dir, name);
      await writeFile(
        at,
        JSON.stringify({ voteId: 'x', tree: 'ballots', index: i, leaf: leaf.toString(), proof }),
      );
      return at;
    };
    const key = Buffer.from(publicKey).toString('hex');
    const ok = await cli([file, '--key', key, '--receipt', await receiptFile('good.json', 1)]);
    expect(ok.out).toContain('VERIFIED, the receipt is in the record');
    expect(ok.code).toBe(0);
    const wrong = await cli([file, '--key', key, '--receipt', await receiptFile('bad.json', 1, leaves[0])]);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/receipt: ballot \S+ is not in this record/);
    const garbled = join(dir, 'garbled.json');
    await writeFile(garbled, '{"leaf": 3}');
    expect((await cli([file, '--receipt', garbled])).code).toBe(2);
  }, 60_000);

  it('fetches a CID from a gateway as a CAR, whose root must be that CID, or a download link', async () => {
    const good = await record(spec('quadratic'));
    const other = await record(spec('basic'));
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(`${req.url} ${req.headers.accept}`);
      const cid = req.url?.match(/^\/ipfs\/([a-z0-9]+)\?format=car$/)?.[1];
      if (!cid) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/vnd.ipld.car' });
      // a dishonest gateway: whatever CID is asked for, it answers with `good`'s record
      res.end(good.car);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const key = Buffer.from(publicKey).toString('hex');
      const root = good.blocks.at(-1)!.cid.toString();
      const ok = await cli([root, '--gateway', gateway, '--key', key]);
      expect(ok.out).toContain('VERIFIED');
      expect(ok.code).toBe(0);
      expect(requests[0]).toBe(`/ipfs/${root}?format=car application/vnd.ipld.car`);
      const swapped = await cli([other.blocks.at(-1)!.cid.toString(), '--gateway', gateway, '--key', key]);
      expect(swapped.code).toBe(1);
      expect(swapped.out).toContain(`format: the CAR's root is ${root}, not the requested`);
      // a download link (as GET /proposals/{proposalId}/record.car gives it) is read as it is
      const byUrl = await cli([`${gateway}/ipfs/${root}?format=car`, '--key', key]);
      expect(byUrl.out).toContain('VERIFIED');
      const missing = await cli([`${gateway}/nothing.car`]);
      expect(missing.code).toBe(1);
    } finally {
      server.close();
    }
  }, 60_000);
});
