/**
 * Publishing a closed proposal's record (docs/governance.md, "Publishing"). The closing transaction fixes
 * the record's CID (recordCidOf); afterwards the record is built again from the stored rows, streamed as
 * a CAR into the IPFS node, pinned there, and the proposal marked published. Apart from the status
 * change, so closing never waits for the IPFS node; one instance at a time by a lease on the proposal row
 * (a conditional UPDATE, as the reminders are claimed), retried with a growing delay after a failure.
 * The record is deterministic, so every build gives the CID fixed at the close.
 */

import { CarWriter } from '@ipld/car';
import { type DbOrTx, proposals } from '@plenum/db';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Services } from '../../services';
import type { NodeProvider } from '../../storage/provider';
import { CLOSED_STATUSES } from '../rows';
import type { Attestor } from './attest';
import { CID } from './block';
import { buildProposalRecord } from './build';
import { recordInputOf } from './sources';

/** how long an instance holds the build before another may take it over */
export const RECORD_LEASE_MS = 10 * 60_000;

export type RecordNode = Pick<NodeProvider, 'importCar' | 'pin' | 'protect'>;

export interface PublishParams {
  node: RecordNode;
  /** signs the record (the instance's record key); absent: no attestation */
  attest?: Attestor | undefined;
  /** how often a publish in progress renews its lease (default a tenth of RECORD_LEASE_MS) */
  renewEveryMs?: number;
}

/** takes the proposal's publishing for this instance; null when it is done, open, or another instance has it */
async function claim(svc: Services, proposalId: string): Promise<{ recordCid: string | null } | null> {
  const now = svc.clock.now();
  const rows = await svc.db
    .update(proposals)
    .set({ recordClaimedUntil: new Date(now.getTime() + RECORD_LEASE_MS) })
    .where(
      and(
        eq(proposals.id, proposalId),
        isNull(proposals.recordPublishedAt),
        inArray(proposals.status, [...CLOSED_STATUSES]),
        or(isNull(proposals.recordClaimedUntil), lte(proposals.recordClaimedUntil, now)),
      ),
    )
    .returning({ id: proposals.id, recordCid: proposals.recordCid });
  return rows[0] ?? null;
}

/**
 * The record's CID, built from the rows `db` reads (the closing transaction's, so the CID follows from
 * exactly what was counted) without storing a block. Takes about 20 µs per ballot and entry.
 */
export async function recordCidOf(db: DbOrTx, proposalId: string, attest?: Attestor): Promise<string> {
  const input = await recordInputOf(db, proposalId);
  const blocks = buildProposalRecord({ ...input, attest });
  for (;;) {
    const step = await blocks.next();
    if (step.done) return step.value.toString();
  }
}

/**
 * Builds, stores and pins one proposal's record if this instance wins its lease; returns the CID, or null
 * when there was nothing to do here. A failure is recorded on the proposal (attempts, reason, the time
 * of the next try) and thrown.
 */
export async function publishRecord(
  svc: Services,
  params: PublishParams & { proposalId: string },
): Promise<string | null> {
  const { proposalId, node } = params;
  const claimed = await claim(svc, proposalId);
  if (!claimed) return null;
  // no GC run removes the blocks between their import and the pin (docs/storage.md, "Garbage collection")
  const lease = node.protect?.();
  // a large record takes minutes to store on the embedded node: the lease is renewed while it runs, so
  // no other instance takes the work over midway (docs/governance.md, "Publishing")
  let renewing: Promise<unknown> = Promise.resolve();
  const renewal = setInterval(
    () => {
      renewing = renewing
        .then(() =>
          svc.db
            .update(proposals)
            .set({ recordClaimedUntil: new Date(svc.clock.now().getTime() + RECORD_LEASE_MS) })
            .where(and(eq(proposals.id, proposalId), isNull(proposals.recordPublishedAt))),
        )
        .catch((err: unknown) => svc.log.warn({ err, proposalId }, 'renewing a record lease failed'));
    },
    params.renewEveryMs ?? RECORD_LEASE_MS / 10,
  );
  renewal.unref();
  const stopRenewing = async () => {
    clearInterval(renewal);
    await renewing;
  };
  try {
    // the CID fixed at the close; a proposal closed before records existed gets it now. The CAR's header
    // names it: Kubo's `dag/import` refuses a CAR without a root
    const expected = claimed.recordCid ?? (await recordCidOf(svc.db, proposalId, params.attest));
    const input = await recordInputOf(svc.db, proposalId);
    let root: CID | null = null;
    await node.importCar(() =>
      carOf(buildProposalRecord({ ...input, attest: params.attest }), CID.parse(expected), (cid) => {
        root = cid;
      }),
    );
    if (!root) throw new Error('the record build yielded no block');
    const recordCid = (root as CID).toString();
    // a different root means the rows or the record key changed since the close, and the record of the
    // close cannot be made again
    if (recordCid !== expected)
      throw new Error(
        `the record built now (${recordCid}) is not the one fixed at the close (${expected}); was SECRET_KEY changed?`,
      );
    await node.pin(root);
    await stopRenewing();
    await svc.db
      .update(proposals)
      .set({ recordCid, recordPublishedAt: svc.clock.now(), recordClaimedUntil: null, recordError: null })
      .where(and(eq(proposals.id, proposalId), isNull(proposals.recordPublishedAt)));
    return recordCid;
  } catch (err) {
    await stopRenewing();
    const reason = err instanceof Error ? err.message : String(err);
    await svc.db
      .update(proposals)
      .set({
        recordAttempts: sql`${proposals.recordAttempts} + 1`,
        recordError: reason.slice(0, 500),
        // the next try after the n-th failure: 10 s, 20 s, 40 s, … at most an hour
        recordClaimedUntil: sql`${svc.clock.now().toISOString()}::timestamptz + make_interval(secs => least(3600, 10 * power(2, ${proposals.recordAttempts})))`,
      })
      .where(eq(proposals.id, proposalId));
    throw err;
  } finally {
    clearInterval(renewal);
    lease?.release();
  }
}

/** one pass: the closed proposals without a record whose lease or retry time is past, oldest first */
export async function publishDueRecords(svc: Services, params: PublishParams & { limit?: number }) {
  const now = svc.clock.now();
  const due = await svc.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(
      and(
        isNull(proposals.recordPublishedAt),
        inArray(proposals.status, [...CLOSED_STATUSES]),
        or(isNull(proposals.recordClaimedUntil), lte(proposals.recordClaimedUntil, now)),
      ),
    )
    .orderBy(asc(proposals.recordClaimedUntil))
    .limit(params.limit ?? 20);
  let published = 0;
  for (const { id } of due) {
    try {
      if (await publishRecord(svc, { ...params, proposalId: id })) published++;
    } catch (err) {
      svc.log.warn({ err, proposalId: id }, 'publishing a proposal record failed; retried later');
    }
  }
  return published;
}

/**
 * The blocks as a CARv1 stream whose header names `root`, read as it is written (bounded memory). The
 * root block comes last; `onRoot` gets each block's CID, so the last one it gets is the root built.
 */
async function* carOf(
  blocks: AsyncGenerator<{ cid: CID; bytes: Uint8Array }, CID>,
  root: CID,
  onRoot: (cid: CID) => void,
) {
  const { writer, out } = CarWriter.create([root]);
  let failure: unknown = null;
  const feeding = (async () => {
    try {
      for await (const b of blocks) {
        await writer.put(b as never);
        onRoot(b.cid);
      }
    } finally {
      await writer.close();
    }
  })().catch((err: unknown) => {
    failure = err;
  });
  yield* out;
  await feeding;
  if (failure) throw failure;
}
