import type { ProposalStatus, VotingSystemName } from '@plenum/db';
import { type DbOrTx, proposals, proposalTallies } from '@plenum/db';
import { eq, sql } from 'drizzle-orm';
import { currentElectorate } from './electorate';
import type { ProposalRow } from './rows';
import { snapshotBlockView } from './serialize';
import { scoresFromTallies } from './system-tallies';
import { decideOutcome, formatScore } from './systems';
import type { OptionCount } from './tally';

/** What results need of a proposal and its DAO (a subset, so the hot vote path can select little). */
export interface ResultsBasis {
  proposalId: string;
  status: ProposalStatus;
  votingOptions: string[];
  votingSystem: VotingSystemName;
  eligibleVoters: number;
  eligibleWeight: string | bigint;
  threshold: string | number;
  quorum: string | number;
  /** the proposal's rule: `after-end` hides choices and per-option figures while it is open */
  resultsVisibility: 'live' | 'after-end';
  endTime: Date;
  /** token DAOs: the block the weights were read at */
  snapshotBlockNumber?: number | null;
  snapshotBlockHash?: string | null;
  snapshotBlockTime?: Date | null;
}

/** whether a proposal's choices and per-option figures are hidden now (docs/governance.md, "Hidden results") */
export const resultsHidden = (b: Pick<ResultsBasis, 'resultsVisibility' | 'status'>) =>
  b.resultsVisibility === 'after-end' && (b.status === 'PENDING' || b.status === 'ACTIVE');

export interface Counts {
  byOption: Map<string, OptionCount>;
  updatedAt: Date | null;
}

/** running totals from the sharded tally rows: a handful of rows, never the votes table (keys: system-tallies.ts) */
export async function readCounts(db: DbOrTx, proposalId: string): Promise<Counts> {
  const rows = await db
    .select({
      option: proposalTallies.option,
      votes: sql<string>`sum(${proposalTallies.votes})::text`,
      weight: sql<string>`sum(${proposalTallies.weight})::text`,
      updatedAt: sql<string>`max(${proposalTallies.updatedAt})::text`,
    })
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposalId))
    .groupBy(proposalTallies.option);
  let updatedAt: Date | null = null;
  const byOption = new Map<string, OptionCount>();
  for (const r of rows) {
    byOption.set(r.option, { votes: Number(r.votes), weight: BigInt(r.weight) });
    const at = new Date(r.updatedAt);
    if (!updatedAt || at > updatedAt) updatedAt = at;
  }
  return { byOption, updatedAt };
}

/**
 * The results read (read-results.ts): the proposal (with its rules) and its tally rows aggregated in one
 * prepared statement, built once per service container (runtime.ts), so no SQL is built per read.
 */
export function prepareResultsRead(db: DbOrTx) {
  const tallies = sql<string>`(
    select coalesce(json_agg(t), '[]')::text from (
      select option, sum(votes)::text as votes, sum(weight)::text as weight, max(updated_at) as at
      from ${proposalTallies} where proposal_id = ${proposals.id} group by option
    ) t)`;
  return db
    .select({ p: proposals, tallies })
    .from(proposals)
    .where(eq(proposals.id, sql.placeholder('id')))
    .limit(1)
    .prepare('plenum_results_read');
}

/**
 * the results object (docs/governance.md, "Results"); weights as decimal strings, percentages rounded to 2
 * decimals
 */
export function resultsView(
  basis: ResultsBasis,
  byOption: ReadonlyMap<string, OptionCount>,
  updatedAt: Date,
  /** `reveal`: the full figures even while hidden (finalization decides on them) */
  options: { reveal?: boolean } = {},
) {
  const eligibleWeight = BigInt(basis.eligibleWeight);
  const scores = scoresFromTallies(basis.votingSystem, basis.votingOptions, byOption);
  const out = decideOutcome(scores, {
    eligibleVoters: basis.eligibleVoters,
    eligibleWeight,
    threshold: basis.threshold,
    quorum: basis.quorum,
  });
  const hidden = !options.reveal && resultsHidden(basis);
  // a cancelled proposal decided nothing: its figures stand as they were, without a winner
  const cancelled = basis.status === 'CANCELLED';
  const score = (option: string, votes: number, weight: bigint) => ({
    option,
    votes,
    weight: formatScore(scores.unit, weight),
  });
  return {
    proposalId: basis.proposalId,
    status: basis.status,
    votingSystem: basis.votingSystem,
    // hidden: the number of votes, the weight cast and the turnout only
    options: hidden
      ? []
      : out.options.map((o) => ({ ...score(o.option, o.votes, o.score), percent: o.percent })),
    totalVotes: out.totalVotes,
    totalWeight: out.totalWeight.toString(),
    eligibleVoters: basis.eligibleVoters,
    eligibleWeight: eligibleWeight.toString(),
    turnoutPercent: out.turnoutPercent,
    quorumPercent: Number(basis.quorum),
    quorumReached: out.quorumReached,
    threshold: Number(basis.threshold),
    winningOption: hidden || cancelled ? null : out.winningOption,
    passing: hidden || cancelled ? null : out.passing,
    hidden,
    revealAt: hidden ? basis.endTime.toISOString() : null,
    snapshotBlock: snapshotBlockView({
      snapshotBlockNumber: basis.snapshotBlockNumber ?? null,
      snapshotBlockHash: basis.snapshotBlockHash ?? null,
      snapshotBlockTime: basis.snapshotBlockTime ?? null,
    }),
    rounds:
      hidden || !('rounds' in scores)
        ? null
        : scores.rounds.map((r) => ({
            round: r.round,
            scores: scores.options.map((o, i) => score(o, r.votes[i]!, r.scores[i]!)),
            continuing: r.continuing,
            remainingWeight: r.remainingWeight.toString(),
            eliminated: r.eliminated,
          })),
    cancelled,
    updatedAt: updatedAt.toISOString(),
  };
}
export type ResultsView = ReturnType<typeof resultsView>;

/** a proposal's results basis: its own copy of the rules it was created under (docs/governance.md) */
export function basisOf(p: ProposalRow): ResultsBasis {
  return {
    proposalId: p.id,
    status: p.status,
    votingOptions: p.votingOptions,
    votingSystem: p.votingSystem,
    eligibleVoters: p.eligibleVoters,
    eligibleWeight: p.eligibleWeight,
    threshold: p.threshold,
    quorum: p.quorum,
    resultsVisibility: p.resultsVisibility,
    endTime: p.endTime,
    snapshotBlockNumber: p.snapshotBlockNumber,
    snapshotBlockHash: p.snapshotBlockHash,
    snapshotBlockTime: p.snapshotBlockTime,
  };
}

/** results of a proposal in its current state, read inside a transaction or not */
export async function resultsOf(
  db: DbOrTx,
  p: ProposalRow,
  options: { reveal?: boolean } = {},
): Promise<ResultsView> {
  const basis = basisOf(p);
  if (p.status === 'PENDING') {
    // before voting starts: no votes, the current members as the electorate
    const e = await currentElectorate(db, p.daoId, p.tokenWeighted);
    return resultsView({ ...basis, ...e }, new Map(), p.updatedAt, options);
  }
  const counts = await readCounts(db, p.id);
  const updatedAt = counts.updatedAt && counts.updatedAt > p.updatedAt ? counts.updatedAt : p.updatedAt;
  return resultsView(basis, counts.byOption, updatedAt, options);
}
