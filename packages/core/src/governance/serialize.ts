import type { daos, proposals, votes } from '@plenum/db';
import { typedDataOf } from './signed-vote';

/**
 * Database rows → the API's resource shapes (docs/governance.md; ids named daoId/proposalId/voteId, ISO
 * times).
 */

type DaoRow = typeof daos.$inferSelect;
type ProposalRow = typeof proposals.$inferSelect;
type VoteRow = typeof votes.$inferSelect;

export function votingRulesView(d: DaoRow) {
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
    weight: v.weight,
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
