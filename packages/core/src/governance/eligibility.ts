import { type DbOrTx, daoMembers, users, wallets } from '@plenum/db';
import type { IneligibleReason } from '@plenum/validators';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../shared/errors';

/**
 * Whether an address may vote on a proposal now, and why not: the one decision behind both the voting
 * power answer (voting-power.ts) and every refusal of a vote (cast-vote.ts before the batch,
 * vote-commit.ts inside it), so both always give the same reason (docs/governance.md, "Who votes, with which weight").
 */
export interface EligibilityFacts {
  now: Date;
  proposal: { status: string; endTime: Date; startTime: Date; snapshotAt: Date | null };
  dao: {
    status: string;
    tokenWeighted: boolean;
    /** token-holders DAO: any wallet with weight at the snapshot block votes, members or not */
    holdersOpen: boolean;
  };
  /** a member of the DAO now; `addedAt` when known (it tells "joined after the start" from "no weight") */
  member: { addedAt: Date | null } | null;
  /** the account the wallet is linked to; null for a wallet linked to no account */
  account: { status: string; deletedAt: Date | null } | null;
  /** the address's weight in the proposal's frozen electorate; null when it is not in it */
  weight: string | null;
  /** token-holders DAO, address not in the electorate: its weight read at the snapshot block */
  holder?: { weight: bigint; minWeight: bigint } | null;
}

/**
 * null when the address may vote. Checked in this order: the account (suspended, deleted), then the
 * electorate (eligibility, 403), then time and state (409), so a refusal says the most lasting reason.
 */
export function ineligibility(f: EligibilityFacts): IneligibleReason | null {
  if (f.account?.deletedAt) return 'ACCOUNT_DELETED';
  if (f.account?.status === 'suspended') return 'ACCOUNT_SUSPENDED';
  const { proposal: p, dao } = f;
  // nobody votes on a cancelled proposal, whoever they are
  if (p.status === 'CANCELLED') return 'CANCELLED';
  if (p.status === 'PENDING' || f.now < p.startTime)
    return !dao.holdersOpen && !f.member ? 'NOT_A_MEMBER' : 'NOT_STARTED';
  if (f.weight !== null) {
    // a member removed after the start has lost the vote (members DAOs)
    if (!dao.holdersOpen && !f.member) return 'NOT_A_MEMBER';
  } else if (dao.holdersOpen) {
    const held = f.holder?.weight ?? 0n;
    if (held === 0n) return 'NO_WEIGHT';
    if (held < (f.holder?.minWeight ?? 1n)) return 'BELOW_MIN_WEIGHT';
  } else {
    if (!f.member) return 'NOT_A_MEMBER';
    // a member outside the electorate: joined after the start, or (weighted DAOs) no weight at it
    const since = f.member.addedAt;
    const after = !dao.tokenWeighted || (since !== null && since > (p.snapshotAt ?? p.startTime));
    return after ? 'JOINED_AFTER_START' : 'NO_WEIGHT';
  }
  if (p.status !== 'ACTIVE' || f.now >= p.endTime) return 'ENDED';
  if (dao.status !== 'ACTIVE') return 'DAO_NOT_ACTIVE';
  return null;
}

const MESSAGES: Record<IneligibleReason, (voter: string) => string> = {
  NOT_STARTED: () => 'Voting on this proposal has not started yet',
  ENDED: () => 'Voting on this proposal has ended',
  CANCELLED: () => 'This proposal was cancelled',
  DAO_NOT_ACTIVE: () => 'The DAO is not active: it takes no votes',
  NOT_A_MEMBER: (v) => `${v} is not a member of this DAO`,
  JOINED_AFTER_START: (v) =>
    `${v} became a member after voting started: it is not in this proposal's electorate`,
  NO_WEIGHT: (v) => `${v} had no voting weight when voting started`,
  BELOW_MIN_WEIGHT: (v) => `${v} held less than the DAO's minimum weight when voting started`,
  ACCOUNT_SUSPENDED: (v) => `The account ${v} belongs to is suspended`,
  ACCOUNT_DELETED: (v) => `The account ${v} belonged to is deleted`,
};

/**
 * The refusal of a vote for `reason`, in the contract's reasons (docs/api.md, "Errors"): 409
 * PROPOSAL_NOT_ACTIVE (not started, ended) or DAO_NOT_ACTIVE for time and state, 403 NOT_ELIGIBLE for
 * everything about the voter; `detail` is the voting power's own reason, so both always agree.
 */
export function refusalOf(reason: IneligibleReason, voter: string): AppError {
  const message = MESSAGES[reason](voter);
  if (reason === 'NOT_STARTED' || reason === 'ENDED' || reason === 'CANCELLED')
    return new AppError('CONFLICT', message, { reason: 'PROPOSAL_NOT_ACTIVE', detail: reason });
  if (reason === 'DAO_NOT_ACTIVE')
    return new AppError('CONFLICT', message, { reason: 'DAO_NOT_ACTIVE', detail: reason });
  return new AppError('FORBIDDEN', message, { reason: 'NOT_ELIGIBLE', detail: reason });
}

/** what the decision needs to know about an address beyond the proposal: membership and account */
export async function voterFacts(db: DbOrTx, daoId: string, address: string) {
  const [[memberRow], [accountRow]] = await Promise.all([
    db
      .select({ addedAt: daoMembers.addedAt })
      .from(daoMembers)
      .where(and(eq(daoMembers.daoId, daoId), eq(daoMembers.address, address)))
      .limit(1),
    db
      .select({ status: users.status, deletedAt: users.deletedAt })
      .from(wallets)
      .innerJoin(users, eq(users.id, wallets.userId))
      .where(eq(wallets.address, address))
      .limit(1),
  ]);
  return { member: memberRow ?? null, account: accountRow ?? null };
}
