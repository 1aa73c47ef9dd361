import { type DbOrTx, proposals } from '@plenum/db';
import { canonicalJson, createProposalInput, fieldIssue, VOTING_SYSTEM_TRAITS } from '@plenum/validators';
import { and, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../auth/sessions';
import type { Services } from '../services';
import { AppError, conflict, forbidden } from '../shared/errors';
import { assertMinVotingPeriod, proposalWindow } from './create-proposal';
import { actingAs, can, type Power } from './dao-authority';
import { appendEvents } from './event-log';
import { changesBetween, pageHistory, recordChange } from './history';
import { getProposal } from './proposal-queries';
import { type ProposalRow, requireDao, requireProposal } from './rows';
import { proposalSummaryView } from './serialize';
import { changeStatus, ensureCurrentStatus } from './status-automation';
import { systemOptions } from './systems';

/**
 * A proposal after its creation: cancelling and editing it, and its history (docs/governance.md,
 * "Cancelling a proposal" and "Editing a proposal"). Both hold the proposal's row lock like finalization
 * (status-automation.ts), and vote batches hold a share lock on it, so a cancel waits for votes in flight
 * and exactly one of cancel and finalization changes a status.
 */

const HOUR_MS = 3_600_000;

/**
 * The address a caller acts through on a proposal: a wallet with `power` in its DAO, else the proposal's
 * author when it is one of the caller's wallets (the named one, when `actorAddress` is given); 403
 * NOT_DAO_ADMIN otherwise.
 */
async function actorOnProposal(
  tx: DbOrTx,
  params: { userId: string; p: ProposalRow; power: Power; actorAddress?: string | undefined },
): Promise<string> {
  const dao = await requireDao(tx, params.p.daoId);
  const acting = await actingAs(tx, {
    userId: params.userId,
    dao,
    power: params.power,
    actorAddress: params.actorAddress,
    refuse: false,
  });
  if (can(acting.authority, params.power)) return acting.address;
  const author =
    params.actorAddress === undefined
      ? acting.mine.includes(params.p.creatorAddress)
      : acting.address === params.p.creatorAddress;
  if (author) return params.p.creatorAddress;
  throw forbidden(
    params.power === 'cancel'
      ? "Only the proposal's author, or this DAO's owner, admins and moderators, can cancel it"
      : "Only the proposal's author, or this DAO's owner and admins, can edit it",
    'NOT_DAO_ADMIN',
  );
}

const lockProposal = async (tx: DbOrTx, proposalId: string) => {
  const [p] = await tx.select().from(proposals).where(eq(proposals.id, proposalId)).for('update');
  return p ?? (await requireProposal(tx, proposalId));
};

/**
 * POST /proposals/{proposalId}/cancel: 403 before 409, like votes. A proposal past its end is finalized
 * first by the normal path, so it is closed (409 PROPOSAL_CLOSED) rather than cancelled.
 */
export async function cancelProposal(
  svc: Services,
  params: {
    principal: Principal;
    proposalId: string;
    reason?: string | undefined;
    actorAddress?: string | undefined;
  },
) {
  await ensureCurrentStatus(svc, await requireProposal(svc.db, params.proposalId));
  await svc.db.transaction(async (tx) => {
    const p = await lockProposal(tx, params.proposalId);
    const by = await actorOnProposal(tx, {
      userId: params.principal.userId,
      p,
      power: 'cancel',
      actorAddress: params.actorAddress,
    });
    const now = svc.clock.now();
    const open = p.status === 'PENDING' || (p.status === 'ACTIVE' && now < p.endTime);
    if (!open)
      throw conflict(
        `This proposal is ${closedWord(p, now)}: it can no longer be cancelled`,
        'PROPOSAL_CLOSED',
      );
    const reason = params.reason ? params.reason : null;
    const [cancelled] = await tx
      .update(proposals)
      .set({ status: 'CANCELLED', cancelledAt: now, cancelledBy: by, cancelReason: reason, updatedAt: now })
      .where(and(eq(proposals.id, p.id), inArray(proposals.status, ['PENDING', 'ACTIVE'])))
      .returning();
    await changeStatus(svc, tx, p, cancelled!);
    await recordChange(tx, {
      daoId: p.daoId,
      proposalId: p.id,
      actorAddress: by,
      changes: {
        status: { from: p.status, to: 'CANCELLED' },
        ...(reason ? { reason: { from: null, to: reason } } : {}),
      },
      at: now,
    });
  });
  return getProposal(svc, { proposalId: params.proposalId, viewer: params.principal });
}

const closedWord = (p: ProposalRow, now: Date) =>
  p.status === 'ACTIVE' && now >= p.endTime ? 'past its end' : p.status;

/** the fields an edit may change, as the proposal keeps them */
const editable = (p: ProposalRow) => ({
  title: p.title,
  description: p.description,
  proposalData: p.proposalData,
  votingOptions: p.votingOptions,
  votingSystem: p.votingSystem,
  startTime: p.startTime.toISOString(),
  endTime: p.endTime.toISOString(),
});

export interface ProposalEdit {
  proposalId: string;
  actorAddress?: string | undefined;
  title?: string | undefined;
  description?: string | undefined;
  proposalData?: Record<string, unknown> | undefined;
  votingOptions?: string[] | undefined;
  votingSystem?: ProposalRow['votingSystem'] | undefined;
  startTime?: string | undefined;
  votingDurationHours?: number | undefined;
}

/**
 * PATCH /proposals/{proposalId}: the given fields laid over the proposal, and the whole checked exactly as
 * at creation (createProposalInput, the start window, the proposal's minVotingPeriod). Only while PENDING
 * before its start (409 PROPOSAL_NOT_PENDING), under the row lock, so an edit never races the start.
 */
export async function updateProposal(svc: Services, params: { principal: Principal; input: ProposalEdit }) {
  const { input } = params;
  await svc.db.transaction(async (tx) => {
    const p = await lockProposal(tx, input.proposalId);
    const by = await actorOnProposal(tx, {
      userId: params.principal.userId,
      p,
      power: 'settings',
      actorAddress: input.actorAddress,
    });
    const now = svc.clock.now();
    if (p.status !== 'PENDING' || now >= p.startTime)
      throw conflict(
        'Voting on this proposal has started: it can no longer be edited',
        'PROPOSAL_NOT_PENDING',
      );
    const system = input.votingSystem ?? p.votingSystem;
    // a system with fixed options (basic) takes its own when the edit names none
    const keepOptions = !(input.votingSystem && VOTING_SYSTEM_TRAITS[system].fixedOptions);
    const merged = {
      daoId: p.daoId,
      creatorAddress: p.creatorAddress,
      title: input.title ?? p.title,
      description: input.description ?? p.description,
      proposalData: input.proposalData ?? p.proposalData,
      votingOptions: input.votingOptions ?? (keepOptions ? p.votingOptions : undefined),
      votingSystem: system,
      startTime: input.startTime ?? p.startTime.toISOString(),
      votingDurationHours:
        input.votingDurationHours ?? (p.endTime.getTime() - p.startTime.getTime()) / HOUR_MS,
    };
    const parsed = createProposalInput.safeParse(merged);
    if (!parsed.success)
      throw new AppError('BAD_REQUEST', 'The proposal as edited is not valid', {
        reason: 'VALIDATION_FAILED',
        issues: parsed.error.issues.map(fieldIssue),
      });
    const data = parsed.data;
    const { startTime, endTime } = proposalWindow(now, data);
    assertMinVotingPeriod(data.votingDurationHours, p.minVotingPeriod);
    const next = {
      title: data.title,
      description: data.description,
      // the same object with its keys in another order (jsonb keeps its own order) is no change
      proposalData:
        canonicalJson(data.proposalData) === canonicalJson(p.proposalData)
          ? p.proposalData
          : data.proposalData,
      votingOptions: systemOptions(data.votingSystem, data.votingOptions),
      votingSystem: data.votingSystem,
      startTime: startTime.toISOString(),
      endTime: endTime.toISOString(),
    };
    const changes = changesBetween(editable(p), next);
    if (!Object.keys(changes).length) return;
    const [row] = await tx
      .update(proposals)
      .set({ ...next, startTime, endTime, updatedAt: now })
      .where(eq(proposals.id, p.id))
      .returning();
    await recordChange(tx, { daoId: p.daoId, proposalId: p.id, actorAddress: by, changes, at: now });
    await appendEvents(tx, {
      items: [
        {
          type: 'proposal_updated',
          daoId: p.daoId,
          proposalId: p.id,
          data: { ...proposalSummaryView(row!), changes },
        },
      ],
      at: now,
    });
  });
  return getProposal(svc, { proposalId: input.proposalId, viewer: params.principal });
}

/** GET /proposals/{proposalId}/history: its edits and its cancellation, newest first; public */
export async function proposalHistory(
  svc: Services,
  params: { proposalId: string; page: number; limit: number },
) {
  await requireProposal(svc.db, params.proposalId);
  return pageHistory(svc.db, params);
}
