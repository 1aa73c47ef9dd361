/**
 * Verifies a proposal record (docs/governance.md, "The verifier"): the blocks against their CIDs, the
 * attestation, the electorate, every ballot and signature, the weights, and a recount with the server's
 * own counting functions (@plenum/core), compared with the published results and status.
 */

import { isDeepStrictEqual as isDeepEqual } from 'node:util';
import {
  type BallotLeaf,
  CID,
  delegatedWeights,
  type ElectoratePage,
  type FrozenEntry,
  merkleRoot,
  type ProofStep,
  RECORD_FORMAT,
  type RecordBody,
  type RecordRoot,
  recordedBallot,
  recountResults,
  verifyAttestation,
  verifyInclusion,
} from '@plenum/core/governance/record/index';
import { canonicalBallot } from '@plenum/core/governance/systems/index';
import { VOTE_DOMAIN, VOTE_TYPES } from '@plenum/core/governance/vote-signer';
import { type Hex, recoverTypedDataAddress } from 'viem';
import { BlockSet } from './blocks';
import { type Failure, Failures } from './failures';

export interface VerifyOptions {
  /** the attestation key expected (32 bytes, Ed25519); without it any key is reported, not pinned */
  key?: Uint8Array;
  /** the CID the record was asked for: the CAR's root must be it */
  expectedRoot?: string;
  /** a receipt to check: the ballot's leaf CID and its inclusion proof */
  receipt?: { leaf: string; proof: { side: 'l' | 'r'; cid: string }[] };
}

export interface Verdict {
  ok: boolean;
  failures: Failure[];
  recordCid: string | null;
  proposalId: string | null;
  status: string | null;
  blocks: number;
  ballots: { counted: number; replaced: number; signed: number; session: number; sessionWeight: string };
  attestationKey: string | null;
}

type Counted = { leaf: BallotLeaf; weight: bigint };

export async function verifyRecord(car: Uint8Array, options: VerifyOptions = {}): Promise<Verdict> {
  const failures = new Failures();
  const verdict: Verdict = {
    ok: false,
    failures: failures.list,
    recordCid: null,
    proposalId: null,
    status: null,
    blocks: 0,
    ballots: { counted: 0, replaced: 0, signed: 0, session: 0, sessionWeight: '0' },
    attestationKey: null,
  };
  let blocks: BlockSet;
  let roots: CID[];
  try {
    ({ set: blocks, roots } = await BlockSet.fromCar(car, failures));
  } catch (err) {
    failures.add('block', `not a readable CAR: ${(err as Error).message}`);
    return verdict;
  }
  verdict.blocks = blocks.size;
  if (roots.length !== 1) {
    failures.add('format', `a record CAR has one root, this one has ${roots.length}`);
    return verdict;
  }
  const rootCid = roots[0]!;
  verdict.recordCid = rootCid.toString();
  if (options.expectedRoot && options.expectedRoot !== verdict.recordCid)
    failures.add(
      'format',
      `the CAR's root is ${verdict.recordCid}, not the requested ${options.expectedRoot}`,
    );
  const root = blocks.get<RecordRoot>(rootCid, 'the record root');
  if (!root) return done(verdict, failures);
  if (root.format !== RECORD_FORMAT) {
    failures.add('format', `unknown record format ${JSON.stringify(root.format)}`);
    return done(verdict, failures);
  }
  const body = blocks.get<RecordBody>(root.body, 'the record body');
  if (!body) return done(verdict, failures);
  verdict.proposalId = body.proposal.proposalId;
  verdict.status = body.proposal.status;
  if (!isDeepEqual(body.eip712, { domain: VOTE_DOMAIN, primaryType: 'Vote', types: VOTE_TYPES }))
    failures.add('format', 'the EIP-712 domain or types are not those of Plenum votes');

  checkAttestation(root, options, verdict, failures);
  const electorate = await readElectorate(blocks, body, failures);
  const counted = await readBallots(blocks, body, electorate, failures, verdict);
  // a record with blocks missing or forged cannot be recounted: what is there would only mislead
  if (failures.checks.has('block')) failures.add('results', 'not recounted: the record is incomplete');
  else if (counted) recount(body, electorate, counted, failures, verdict);
  if (options.receipt) await checkReceipt(body, options.receipt, failures);
  return done(verdict, failures);
}

function done(verdict: Verdict, failures: Failures): Verdict {
  verdict.ok = failures.list.length === 0;
  return verdict;
}

function checkAttestation(root: RecordRoot, options: VerifyOptions, verdict: Verdict, failures: Failures) {
  const a = root.attestation;
  if (!a) {
    failures.add('attestation', 'the record carries no attestation');
    return;
  }
  verdict.attestationKey = Buffer.from(a.publicKey).toString('hex');
  if (!verifyAttestation(a, root.body.bytes))
    failures.add('attestation', 'the attestation is not a valid signature of the body');
  if (options.key && Buffer.compare(Buffer.from(options.key), Buffer.from(a.publicKey)) !== 0)
    failures.add('attestation', `the record is signed by ${verdict.attestationKey}, not by the expected key`);
}

async function readElectorate(blocks: BlockSet, body: RecordBody, failures: Failures) {
  const out = new Map<string, FrozenEntry>();
  let sum = 0n;
  let last = '';
  const pages: CID[] = [];
  for (const { cid, value } of blocks.leaves<ElectoratePage>(body.electorate.pages, 'an electorate page')) {
    pages.push(cid);
    for (const e of value.entries ?? []) {
      if (out.size > 0 && !(e.address > last))
        failures.add('electorate', `entry ${e.address} is out of order or repeated`);
      last = e.address;
      const weight = BigInt(e.weight);
      out.set(e.address, { weight, delegate: body.electorate.delegation ? e.delegate : null });
      sum += weight;
    }
  }
  const { voters, weight, count } = body.electorate;
  // open to token holders: the members frozen at the start are `voters`, a holder is added on its first
  // vote, and eligibleWeight is the token's total supply at the block (docs/governance.md, "Token
  // holdings from the chain"), so the entries are at least the one and weigh at most the other
  const open = body.rules.membership === 'token-holders';
  if (out.size !== count || (open ? out.size < voters : out.size !== voters))
    failures.add(
      'electorate',
      `${out.size} entries, but the record says ${count} and eligibleVoters ${voters}`,
    );
  if (open ? !/^\d+$/.test(weight) || sum > BigInt(weight) : sum.toString() !== weight)
    failures.add(
      'electorate',
      open
        ? `the entries weigh ${sum}, more than the total supply ${weight}`
        : `the entries weigh ${sum}, but eligibleWeight is ${weight}`,
    );
  await checkShape(pages, body.electorate.pages, 'electorate', failures);
  return out;
}

/** the tree must be the one the builder makes over its leaves, so that indexes and proofs agree */
async function checkShape(
  leaves: CID[],
  root: CID | null,
  what: 'electorate' | 'ballot',
  failures: Failures,
) {
  const expected = await merkleRoot(leaves);
  if (String(expected) !== String(root))
    failures.add(what, `the ${what} tree is not the tree over its leaves`);
}

async function readBallots(
  blocks: BlockSet,
  body: RecordBody,
  electorate: Map<string, FrozenEntry>,
  failures: Failures,
  verdict: Verdict,
): Promise<Counted[] | null> {
  const seen = new Set<string>();
  const countedBy = new Map<string, BallotLeaf>();
  const trees = [
    ['counted', body.ballots],
    ['replaced', body.replaced],
  ] as const;
  const replaced: BallotLeaf[] = [];
  for (const [kind, tree] of trees) {
    const cids: CID[] = [];
    let lastAt = '';
    for (const { cid, value: leaf } of blocks.leaves<BallotLeaf>(tree.root, `a ${kind} ballot`)) {
      cids.push(cid);
      const name = `ballot ${leaf.voteId} (${leaf.voter})`;
      if (seen.has(leaf.voteId)) failures.add('ballot', `${name} appears twice`);
      seen.add(leaf.voteId);
      if (leaf.proposalId !== body.proposal.proposalId || leaf.daoId !== body.proposal.daoId)
        failures.add('ballot', `${name} belongs to another proposal`);
      if (leaf.castAt < lastAt) failures.add('ballot', `${name} is out of order`);
      lastAt = leaf.castAt;
      const entry = electorate.get(leaf.voter);
      if (!entry) failures.add('weight', `${name}: the voter is not in the electorate`);
      else if (entry.weight.toString() !== leaf.ownWeight)
        failures.add(
          'weight',
          `${name} counts ${leaf.ownWeight} of its own, the electorate gives ${entry.weight}`,
        );
      let ballot: string | null = null;
      try {
        ballot = canonicalBallot(recordedBallot(body, leaf.choice));
      } catch (err) {
        failures.add('ballot', `${name}: ${(err as Error).message}`);
      }
      if (leaf.signed) {
        verdict.ballots.signed++;
        await checkSignature(leaf, ballot, body, name, failures);
      } else verdict.ballots.session++;
      if (kind === 'counted') {
        if (countedBy.has(leaf.voter)) failures.add('ballot', `${name}: the voter has two counted ballots`);
        countedBy.set(leaf.voter, leaf);
      } else replaced.push(leaf);
    }
    if (cids.length !== tree.count)
      failures.add('ballot', `${cids.length} ${kind} ballots, but the record says ${tree.count}`);
    await checkShape(cids, tree.root, 'ballot', failures);
  }
  for (const leaf of replaced) {
    const by = countedBy.get(leaf.voter);
    if (!by || by.orderKey < leaf.orderKey)
      failures.add('ballot', `replaced ballot ${leaf.voteId} (${leaf.voter}) has no later counted ballot`);
  }
  verdict.ballots.counted = countedBy.size;
  verdict.ballots.replaced = replaced.length;
  const delegated = delegatedWeights(electorate, new Set(countedBy.keys()));
  let sessionWeight = 0n;
  const out: Counted[] = [];
  for (const leaf of countedBy.values()) {
    const weight = BigInt(leaf.ownWeight) + (delegated.get(leaf.voter) ?? 0n);
    if (!leaf.signed) sessionWeight += weight;
    out.push({ leaf, weight });
  }
  verdict.ballots.sessionWeight = sessionWeight.toString();
  return out;
}

async function checkSignature(
  leaf: BallotLeaf,
  ballot: string | null,
  body: RecordBody,
  name: string,
  failures: Failures,
) {
  const { message, signature } = leaf.signed!;
  const same =
    message.daoId === leaf.daoId &&
    message.proposalId === leaf.proposalId &&
    message.comment === leaf.comment &&
    message.timestamp === leaf.orderKey;
  let signedBallot: string | null = null;
  try {
    signedBallot = canonicalBallot(recordedBallot(body, message.choice));
  } catch {
    // not a ballot of this proposal: reported below
  }
  if (!same || signedBallot === null || signedBallot !== ballot)
    failures.add('signature', `${name}: the signed message is not this ballot`);
  try {
    const signer = await recoverTypedDataAddress({
      domain: VOTE_DOMAIN,
      types: VOTE_TYPES,
      primaryType: 'Vote',
      message: { ...message, timestamp: BigInt(message.timestamp) },
      signature: signature as Hex,
    });
    if (signer.toLowerCase() !== leaf.voter)
      failures.add('signature', `${name}: signed by ${signer.toLowerCase()}`);
  } catch {
    failures.add('signature', `${name}: the signature is malformed`);
  }
}

function recount(
  body: RecordBody,
  _electorate: Map<string, FrozenEntry>,
  counted: Counted[],
  failures: Failures,
  verdict: Verdict,
) {
  let results: ReturnType<typeof recountResults>;
  try {
    results = recountResults(
      body,
      counted.map((c) => ({ choice: c.leaf.choice, weight: c.weight })),
    );
  } catch (err) {
    failures.add('results', `the ballots cannot be recounted: ${(err as Error).message}`);
    return;
  }
  const recorded = body.results as unknown as Record<string, unknown>;
  const mine = results as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(mine), ...Object.keys(recorded)])) {
    if (!isDeepEqual(toPlain(mine[key]), toPlain(recorded[key])))
      failures.add(
        'results',
        `${key}: the record says ${JSON.stringify(recorded[key])}, the recount gives ${JSON.stringify(mine[key])}`,
      );
  }
  const status = body.proposal.status;
  if (recorded.status !== status)
    failures.add('status', `the results say ${recorded.status}, the proposal ${status}`);
  const expected = status === 'CANCELLED' ? 'CANCELLED' : results.passing ? 'PASSED' : 'REJECTED';
  if (status !== expected)
    failures.add('status', `the proposal is ${status}, the recount makes it ${expected}`);
  verdict.status = status;
}

const toPlain = (v: unknown) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

async function checkReceipt(
  body: RecordBody,
  receipt: NonNullable<VerifyOptions['receipt']>,
  failures: Failures,
) {
  let leaf: CID;
  let proof: ProofStep[];
  try {
    leaf = CID.parse(receipt.leaf);
    proof = receipt.proof.map((s) => ({ side: s.side, cid: CID.parse(s.cid) }));
  } catch {
    failures.add('receipt', 'the receipt is not a CID with a proof of CIDs');
    return;
  }
  for (const tree of [body.ballots.root, body.replaced.root])
    if (tree && (await verifyInclusion(tree, leaf, proof))) return;
  failures.add('receipt', `ballot ${receipt.leaf} is not in this record`);
}
