/**
 * Reading a closed proposal's record over the API (docs/governance.md, "The proposal record"): where it
 * is, its CAR, and a ballot's receipt with its inclusion proof.
 */

import { votes } from '@plenum/db';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { CID as CIDClass } from 'multiformats/cid';
import type { Services } from '../../services';
import { AppError, conflict, notFound } from '../../shared/errors';
import type { StorageRuntime } from '../../storage/runtime';
import { isClosedStatus, requireProposal } from '../rows';
import { ensureCurrentStatus } from '../status-automation';
import { type CID, decodeBlock } from './block';
import { buildProposalRecord } from './build';
import { ballotLeafBlock, type RecordBody, type RecordRoot } from './format';
import { proofFromTree } from './merkle';
import { recordAttestor, recordPublicKey } from './publisher';
import { recordInputOf } from './sources';

const notReady = (open: boolean) =>
  conflict(
    open
      ? 'The proposal is still open: its record is made when it closes'
      : 'The record of this proposal is being made; try again shortly',
    'RECORD_NOT_READY',
  );

/** the path of a proposal's record CAR, under the API's root */
export const recordCarPath = (proposalId: string) => `/proposals/${proposalId}/record.car`;

/** GET /proposals/{proposalId}/record */
export async function proposalRecord(svc: Services, params: { proposalId: string }) {
  const p = await ensureCurrentStatus(svc, await requireProposal(svc.db, params.proposalId));
  if (!p.recordCid) throw notReady(!isClosedStatus(p.status));
  return {
    proposalId: p.id,
    status: p.status,
    recordCid: p.recordCid,
    /** when its blocks were stored and pinned on the IPFS node; null until then (the CAR works already) */
    publishedAt: p.recordPublishedAt?.toISOString() ?? null,
    // absolute, as the API's other links (API_URL): a client fetches it as it is
    car: `${svc.config.storage.publicUrl.replace(/\/+$/, '')}${recordCarPath(p.id)}`,
    publicKey: Buffer.from(recordPublicKey(svc.config.secretKey())).toString('hex'),
  };
}

/**
 * The record's blocks for GET /proposals/{proposalId}/record.car, built again from the stored rows (the
 * record is deterministic: the same blocks the node holds, whichever provider it is, also before they
 * are stored). The stream fails at its end if the root is not the CID fixed at the close.
 */
export async function openRecordCar(svc: Services, params: { proposalId: string }) {
  const p = await ensureCurrentStatus(svc, await requireProposal(svc.db, params.proposalId));
  if (!p.recordCid) throw notReady(!isClosedStatus(p.status));
  const recordCid = p.recordCid;
  const input = await recordInputOf(svc.db, p.id);
  const attest = recordAttestor(svc.config.secretKey());
  return {
    recordCid,
    root: CIDClass.parse(recordCid),
    filename: `proposal-${p.id}-record.car`,
    async *blocks() {
      const built = buildProposalRecord({ ...input, attest });
      for (;;) {
        const step = await built.next();
        if (step.done) {
          if (step.value.toString() !== recordCid)
            throw new Error(`the record built now (${step.value}) is not the one fixed at the close`);
          return;
        }
        yield step.value;
      }
    },
  };
}

/**
 * GET /votes/{voteId}/receipt: the vote's leaf CID and its inclusion proof in the record's ballot tree
 * (counted, or replaced when a later vote replaced it), read from the stored record one node per level.
 */
export async function voteReceipt(
  svc: Services & { storage?: Pick<StorageRuntime, 'node'> | null },
  params: { voteId: string },
) {
  const [v] = await svc.db.select().from(votes).where(eq(votes.id, params.voteId));
  if (!v) throw notFound('Vote not found');
  const p = await ensureCurrentStatus(svc, await requireProposal(svc.db, v.proposalId));
  if (!p.recordCid || !p.recordPublishedAt) throw notReady(!isClosedStatus(p.status));
  const node = svc.storage?.node;
  const unavailable = () =>
    new AppError('SERVICE_UNAVAILABLE', 'The IPFS node cannot read the record now; try again shortly', {
      reason: 'STORAGE_UNAVAILABLE',
    });
  if (!node?.getBlock) throw unavailable();
  const read = async <T>(cid: CID) => {
    let bytes: Uint8Array;
    try {
      bytes = await node.getBlock!(cid);
    } catch (err) {
      svc.log.warn({ err, cid: cid.toString() }, 'reading a block of a proposal record failed');
      throw unavailable();
    }
    return decodeBlock<T>(bytes);
  };
  const root = await read<RecordRoot>(CIDClass.parse(p.recordCid));
  const body = await read<RecordBody>(root.body);
  const replaced = v.replacedAt !== null;
  const tree = replaced ? body.replaced : body.ballots;
  // the vote's place in (created_at, id) order among its tree's votes, compared in the database at
  // microseconds
  const [{ index } = { index: 0 }] = await svc.db
    .select({ index: sql<number>`count(*)::int` })
    .from(votes)
    .where(
      and(
        eq(votes.proposalId, v.proposalId),
        replaced ? isNotNull(votes.replacedAt) : isNull(votes.replacedAt),
        sql`(${votes.createdAt}, ${votes.id}) < (select created_at, id from votes where id = ${v.id})`,
      ),
    );
  const leaf = (await ballotLeafBlock(v)).cid;
  if (!tree.root || index >= tree.count) throw new Error(`vote ${v.id} is not in the stored record`);
  const found = await proofFromTree((cid) => read<{ l: CID; r: CID }>(cid), tree.root, tree.count, index);
  if (!found.leaf.equals(leaf)) throw new Error(`vote ${v.id} is not the leaf at its place in the record`);
  return {
    voteId: v.id,
    proposalId: v.proposalId,
    recordCid: p.recordCid,
    tree: replaced ? ('replaced' as const) : ('ballots' as const),
    index,
    leaf: leaf.toString(),
    proof: found.proof.map((s) => ({ side: s.side, cid: s.cid.toString() })),
  };
}
