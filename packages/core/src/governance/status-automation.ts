import { type DbOrTx, daos, proposals } from '@plenum/db';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Services } from '../services';
import { snapshotElectorate } from './electorate';
import { appendEvents } from './event-log';
import { notifyProposalOpened, notifyProposalOutcome } from './notifications';
import { recordCidOf } from './record/publish';
import { recordAttestor } from './record/publisher';
import { resultsOf } from './results';
import { isClosedStatus, type ProposalRow } from './rows';
import { readTokenSnapshot, recordSnapshotFailure, type TokenSnapshot, tokenOf } from './token-snapshot';

/**
 * Status automation: PENDING → ACTIVE at startTime (electorate snapshot), ACTIVE → PASSED | REJECTED at
 * endTime (outcome rule). Each step runs in one transaction holding the proposal's row lock and re-checks
 * the status under it, so with any number of instances a step happens once and emits one
 * `proposal_status_changed`. Vote batches hold a share lock on the same row, so finalization waits for
 * in-flight votes and counts exactly what was acknowledged.
 */

export const isDue = (p: Pick<ProposalRow, 'status' | 'startTime' | 'endTime'>, now: Date) =>
  (p.status === 'PENDING' && p.startTime <= now) || (p.status === 'ACTIVE' && p.endTime <= now);

const dueCondition = (now: Date) =>
  or(
    and(
      eq(proposals.status, 'PENDING'),
      lte(proposals.startTime, now),
      // a token snapshot that failed waits for its retry time
      or(isNull(proposals.snapshotRetryAt), lte(proposals.snapshotRetryAt, now)),
    ),
    and(eq(proposals.status, 'ACTIVE'), lte(proposals.endTime, now)),
  );

/**
 * Emits the step's `proposal_status_changed`. A step that closes the proposal (PASSED, REJECTED,
 * CANCELLED) first fixes its record's CID in the same transaction (docs/governance.md, "Publishing"):
 * the record is built from the rows just written, without storing a block, its CID set on `after` and on
 * the row, and carried by the event; the publisher stores the same blocks on IPFS afterwards.
 */
export async function changeStatus(
  svc: Pick<Services, 'config'>,
  tx: DbOrTx,
  before: ProposalRow,
  after: ProposalRow,
) {
  const closing = isClosedStatus(after.status);
  if (closing) {
    after.recordCid = await recordCidOf(tx, after.id, recordAttestor(svc.config.secretKey()));
    await tx.update(proposals).set({ recordCid: after.recordCid }).where(eq(proposals.id, after.id));
  }
  const results = await resultsOf(tx, after);
  await appendEvents(tx, {
    items: [
      {
        type: 'proposal_status_changed',
        daoId: after.daoId,
        proposalId: after.id,
        data: {
          proposalId: after.id,
          from: before.status,
          to: after.status,
          results,
          ...(closing ? { recordCid: after.recordCid } : {}),
        },
      },
    ],
    at: after.updatedAt,
  });
}

/**
 * Moves one proposal forward if it is due. `skipLocked` (the scheduler): leave a proposal another
 * transaction holds to a later tick; otherwise (reads, votes) wait for it so the caller sees the truth.
 * Returns the proposal as it is afterwards (null when skipped or missing); `changed` is called when this
 * call moved it (another instance may have moved it between the caller's read and this call's lock).
 */
export async function advanceProposal(
  svc: Services,
  proposalId: string,
  options: { skipLocked?: boolean; changed?: () => void } = {},
): Promise<ProposalRow | null> {
  const now = svc.clock.now();
  // a token DAO reads its holdings from the chain before the freezing transaction (no lock waits on RPC)
  let chain: (TokenSnapshot & { minWeight: bigint }) | undefined;
  const [pre] = await svc.db.select().from(proposals).where(eq(proposals.id, proposalId));
  // the token of the rules the proposal was created under
  const token = pre ? tokenOf(pre) : null;
  if (pre && token && pre.status === 'PENDING' && pre.startTime <= now) {
    if (pre.snapshotRetryAt && pre.snapshotRetryAt > now) return pre;
    try {
      const read = await svc.governance.snapshotOnce(proposalId, () => readTokenSnapshot(svc, pre, token));
      chain = { ...read, minWeight: BigInt(pre.minWeight ?? '1') };
    } catch (err) {
      return recordSnapshotFailure(svc, pre, err);
    }
  }
  let moved = false;
  const row = await svc.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(proposals)
      .where(eq(proposals.id, proposalId))
      .for('update', options.skipLocked ? { skipLocked: true } : {});
    if (!locked) return null;
    let p = locked;
    if (p.status === 'PENDING' && p.startTime <= now) {
      const [dao] = await tx.select().from(daos).where(eq(daos.id, p.daoId)).limit(1);
      // became due between the read above and the lock: the next pass reads the chain
      if (tokenOf(p) && !chain) return p;
      const active = await snapshotElectorate(tx, p, p.tokenWeighted, now, chain);
      await changeStatus(svc, tx, p, active);
      await notifyProposalOpened(svc, tx, active, dao!);
      p = active;
    }
    if (p.status === 'ACTIVE' && p.endTime <= now) {
      const [dao] = await tx.select().from(daos).where(eq(daos.id, p.daoId)).limit(1);
      // decided on the full figures, also when they are hidden until now
      const outcome = await resultsOf(tx, p, { reveal: true });
      const [closed] = await tx
        .update(proposals)
        .set({ status: outcome.passing ? 'PASSED' : 'REJECTED', finalizedAt: now, updatedAt: now })
        .where(and(eq(proposals.id, p.id), eq(proposals.status, 'ACTIVE')))
        .returning();
      await changeStatus(svc, tx, p, closed!);
      await notifyProposalOutcome(svc, tx, closed!, dao!);
      p = closed!;
    }
    moved = p.status !== locked.status;
    return p;
  });
  if (moved) options.changed?.();
  return row;
}

/** reads never show a stale status: a proposal past its time is moved forward before it is shown */
export async function ensureCurrentStatus(svc: Services, p: ProposalRow): Promise<ProposalRow> {
  if (!isDue(p, svc.clock.now())) return p;
  return (await advanceProposal(svc, p.id)) ?? p;
}

/** the same for every due proposal of one DAO (before listing them) */
export async function advanceDueOfDao(svc: Services, daoId: string): Promise<void> {
  const due = await svc.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(eq(proposals.daoId, daoId), dueCondition(svc.clock.now())));
  for (const { id } of due) await advanceProposal(svc, id);
}

/** one pass of the scheduler over everything due; returns how many proposals changed */
export async function advanceDueProposals(svc: Services, limit = 200): Promise<number> {
  const now = svc.clock.now();
  const due = await svc.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(dueCondition(now))
    .orderBy(proposals.endTime)
    .limit(limit);
  let changed = 0;
  for (const d of due)
    await advanceProposal(svc, d.id, {
      skipLocked: true,
      changed: () => {
        changed++;
      },
    });
  return changed;
}
