import type { DaoRole as DaoRoleName, daos, proposals, votes } from '@plenum/db';
import { typedDataOf } from './signed-vote';

/**
 * Database rows → the API's resource shapes (docs/governance.md; ids named daoId/proposalId/voteId, ISO
 * times).
 */

type DaoRow = typeof daos.$inferSelect;
type ProposalRow = typeof proposals.$inferSelect;
type VoteRow = typeof votes.$inferSelect;

/** the rule columns a DAO holds, and a proposal holds a copy of (docs/governance.md, "Changing the rules") */
export type RuleColumns = Pick<
  DaoRow,
  | 'threshold'
  | 'minVotingPeriod'
  | 'tokenWeighted'
  | 'tokenChainId'
  | 'tokenAddress'
  | 'tokenStandard'
  | 'tokenSymbol'
  | 'tokenDecimals'
  | 'membership'
  | 'minWeight'
  | 'quorum'
  | 'resultsVisibility'
  | 'allowVoteChange'
  | 'proposers'
  | 'proposalThreshold'
  | 'maxActiveProposalsPerAuthor'
  | 'delegation'
>;

/** the rule columns of a row (a DAO's current rules), to copy onto a new proposal */
export function ruleColumnsOf(d: RuleColumns): RuleColumns {
  return {
    threshold: d.threshold,
    minVotingPeriod: d.minVotingPeriod,
    tokenWeighted: d.tokenWeighted,
    tokenChainId: d.tokenChainId,
    tokenAddress: d.tokenAddress,
    tokenStandard: d.tokenStandard,
    tokenSymbol: d.tokenSymbol,
    tokenDecimals: d.tokenDecimals,
    membership: d.membership,
    minWeight: d.minWeight,
    quorum: d.quorum,
    resultsVisibility: d.resultsVisibility,
    allowVoteChange: d.allowVoteChange,
    proposers: d.proposers,
    proposalThreshold: d.proposalThreshold,
    maxActiveProposalsPerAuthor: d.maxActiveProposalsPerAuthor,
    delegation: d.delegation,
  };
}

export function votingRulesView(d: RuleColumns) {
  return {
    threshold: Number(d.threshold),
    minVotingPeriod: Number(d.minVotingPeriod),
    tokenWeighted: d.tokenWeighted,
    token:
      d.tokenChainId !== null && d.tokenAddress && d.tokenStandard
        ? {
            chainId: d.tokenChainId,
            address: d.tokenAddress,
            standard: d.tokenStandard,
            symbol: d.tokenSymbol ?? '',
            decimals: d.tokenDecimals ?? 18,
          }
        : null,
    membership: d.membership,
    minWeight: d.minWeight,
    quorum: Number(d.quorum),
    resultsVisibility: d.resultsVisibility,
    allowVoteChange: d.allowVoteChange,
    proposers: d.proposers,
    proposalThreshold: d.proposalThreshold,
    maxActiveProposalsPerAuthor: d.maxActiveProposalsPerAuthor,
    delegation: d.delegation,
  };
}
export type VotingRulesView = ReturnType<typeof votingRulesView>;

/**
 * The Dao resource (docs/governance.md, "DAOs"): the summary with every member, the roles, a pending
 * ownership transfer and the newest proposals.
 */
export function daoView(
  d: DaoRow,
  parts: {
    counts: { memberCount: number; proposalCount: number };
    members: string[];
    roles: { address: string; role: DaoRoleName }[];
    proposals: ReturnType<typeof proposalSummaryView>[];
  },
) {
  return {
    ...daoSummaryView(d, parts.counts),
    members: parts.members,
    roles: parts.roles,
    pendingOwner:
      d.pendingOwnerAddress && d.pendingOwnerSince
        ? { address: d.pendingOwnerAddress, requestedAt: d.pendingOwnerSince.toISOString() }
        : null,
    rejectionReason: d.rejectionReason,
    proposals: parts.proposals,
  };
}

export function daoSummaryView(d: DaoRow, counts: { memberCount: number; proposalCount: number }) {
  return {
    daoId: d.id,
    name: d.name,
    description: d.description,
    ownerAddress: d.ownerAddress,
    status: d.status,
    votingRules: votingRulesView(d),
    memberCount: counts.memberCount,
    proposalCount: counts.proposalCount,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function proposalSummaryView(p: ProposalRow) {
  return {
    proposalId: p.id,
    daoId: p.daoId,
    title: p.title,
    description: p.description,
    creatorAddress: p.creatorAddress,
    status: p.status,
    startTime: p.startTime.toISOString(),
    endTime: p.endTime.toISOString(),
    proposalData: p.proposalData,
    votingOptions: p.votingOptions,
    votingSystem: p.votingSystem,
    snapshotBlock: snapshotBlockView(p),
    snapshotError: p.snapshotError,
    votingRules: votingRulesView(p),
    cancellation:
      p.status === 'CANCELLED' && p.cancelledAt
        ? {
            cancelledAt: p.cancelledAt.toISOString(),
            cancelledBy: p.cancelledBy ?? '',
            reason: p.cancelReason,
          }
        : null,
    recordCid: p.recordCid,
    recordPublishedAt: p.recordPublishedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** a token DAO proposal's snapshot block as the API shows it; null before it is taken, or without a token */
export function snapshotBlockView(
  p: Pick<ProposalRow, 'snapshotBlockNumber' | 'snapshotBlockHash' | 'snapshotBlockTime'>,
) {
  return p.snapshotBlockNumber != null && p.snapshotBlockHash && p.snapshotBlockTime
    ? {
        number: String(p.snapshotBlockNumber),
        hash: p.snapshotBlockHash,
        timestamp: p.snapshotBlockTime.toISOString(),
      }
    : null;
}

export type VoteView = ReturnType<typeof voteView>;

/**
 * A vote while its proposal's results are hidden (docs/governance.md, "Hidden results"): no choice, and
 * no signature either, since the signature with the few options at hand would tell the choice.
 */
export function hiddenVoteView(v: VoteRow): VoteView {
  return { ...voteView(v), choice: null, signature: null, typedData: null };
}

export function voteView(v: VoteRow) {
  const signed = v.signature !== null && v.signedTimestamp !== null;
  return {
    voteId: v.id,
    proposalId: v.proposalId,
    daoId: v.daoId,
    voterAddress: v.voterAddress,
    // the ballot's JSON for the array and object systems, else the option (docs/governance.md)
    choice: (v.ballot ?? v.choice) as string | string[] | Record<string, number> | null,
    // what it counts now: its own weight plus its frozen delegators' that have not voted
    // (docs/governance.md, "Counting")
    weight: v.weight,
    ownWeight: v.ownWeight,
    delegatedWeight: v.delegatedWeight,
    comment: v.comment,
    signature: v.signature,
    typedData: signed
      ? typedDataOf({
          daoId: v.daoId,
          proposalId: v.proposalId,
          // what was signed: the option or canonical ballot, or its spelling as sent when it differs
          choice: v.signedChoice ?? v.choice,
          comment: v.comment,
          timestamp: v.signedTimestamp!,
        })
      : null,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
    replacedAt: v.replacedAt?.toISOString() ?? null,
  };
}
