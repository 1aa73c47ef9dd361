/**
 * The voting systems on the tally rows (docs/governance.md, "Voting systems"): what a counted ballot adds
 * to the sharded running totals, and a system's scores read back from them. Results never read the votes
 * table: single-choice and basic keep one row per option as they always did; approval, weighted and
 * quadratic keep one row per option in their accumulator's unit plus two total rows; ranked-choice keeps
 * one row per distinct ranking (at most 325 with 5 options), and the runoff is computed from those.
 */

import type { VotingSystemName } from '@plenum/db';
import {
  type Ballot,
  ballotChoice,
  canonicalBallot,
  contribution,
  finalize,
  type IncrementalBallot,
  type OptionAccumulator,
  parseBallot,
  type RankedChoiceResult,
  type SystemScores,
  systemOptions,
  tallyRankedChoice,
} from './systems';
import type { OptionCount } from './tally';

/** total rows of approval, weighted and quadratic: keys no option has (options are trimmed) */
export const VOTERS_KEY = ' voters';
export const DECIDED_KEY = ' decided';

const withTotals = (s: VotingSystemName) => s === 'approval' || s === 'weighted' || s === 'quadratic';

/** one ballot as the tally rows it moves: key → { votes, weight } */
export function tallyDeltas(ballot: Ballot, weight: bigint): Map<string, OptionCount> {
  if (ballot.system === 'ranked-choice') return new Map([[canonicalBallot(ballot), { votes: 1, weight }]]);
  const c = contribution(ballot as IncrementalBallot, weight);
  const out = new Map<string, OptionCount>();
  for (const [o, a] of c.options) out.set(o, { votes: a.votes, weight: a.amount });
  if (withTotals(ballot.system)) {
    out.set(VOTERS_KEY, { votes: c.totals.voters, weight: c.totals.weight });
    out.set(DECIDED_KEY, { votes: 0, weight: c.totals.decidedWeight });
  }
  return out;
}

/** into += sign × deltas */
export function addDeltas(
  into: Map<string, OptionCount>,
  deltas: ReadonlyMap<string, OptionCount>,
  sign = 1,
) {
  for (const [k, d] of deltas) {
    const t = into.get(k) ?? { votes: 0, weight: 0n };
    into.set(k, { votes: t.votes + sign * d.votes, weight: t.weight + BigInt(sign) * d.weight });
  }
}

/** a system's scores from the summed tally rows (rows of other keys are ignored) */
export function scoresFromTallies(
  system: VotingSystemName,
  votingOptions: readonly string[],
  rows: ReadonlyMap<string, OptionCount>,
): SystemScores | RankedChoiceResult {
  const options = systemOptions(system, votingOptions);
  if (system === 'ranked-choice') {
    const ballots: { weight: bigint; ranking: string[] }[] = [];
    for (const [key, r] of rows) {
      if (!key.startsWith('[') || r.votes <= 0) continue;
      const ranking = JSON.parse(key) as string[];
      // one entry per distinct ranking carries the weight of all its ballots: the runoff only sums weights
      ballots.push({ weight: r.weight, ranking });
    }
    const result = tallyRankedChoice(options, ballots);
    // the count above saw one ballot per distinct ranking: the real numbers of ballots come from the rows
    return withBallotCounts(result, rows);
  }
  const accumulators = new Map<string, OptionAccumulator>();
  for (const o of options) {
    const r = rows.get(o);
    if (r) accumulators.set(o, { votes: r.votes, amount: r.weight });
  }
  let voters: number;
  let weight: bigint;
  let decidedWeight: bigint;
  if (withTotals(system)) {
    voters = rows.get(VOTERS_KEY)?.votes ?? 0;
    weight = rows.get(VOTERS_KEY)?.weight ?? 0n;
    decidedWeight = rows.get(DECIDED_KEY)?.weight ?? 0n;
  } else {
    // one option per ballot: the totals are the sums over the options
    voters = 0;
    weight = 0n;
    for (const a of accumulators.values()) {
      voters += a.votes;
      weight += a.amount;
    }
    decidedWeight = 0n; // finalize derives decided from the scores for these systems
  }
  return finalize(system, options, accumulators, { voters, weight, decidedWeight });
}

/**
 * Ranked-choice over aggregated rankings: the runoff's weights are exact, but its per-option ballot counts
 * counted rankings, not ballots. Recount them: a ballot counts, in each round, for the first option of its
 * ranking still in the race.
 */
function withBallotCounts(result: RankedChoiceResult, rows: ReadonlyMap<string, OptionCount>) {
  const index = new Map(result.options.map((o, i) => [o, i]));
  const rankings: { ranking: string[]; votes: number }[] = [];
  let totalVotes = 0;
  for (const [key, r] of rows) {
    if (!key.startsWith('[') || r.votes <= 0) continue;
    rankings.push({ ranking: JSON.parse(key) as string[], votes: r.votes });
    totalVotes += r.votes;
  }
  const out: string[] = [];
  const rounds = result.rounds.map((round) => {
    const votes = result.options.map(() => 0);
    for (const { ranking, votes: n } of rankings) {
      const first = ranking.find((o) => !out.includes(o));
      if (first !== undefined) votes[index.get(first)!]! += n;
    }
    if (round.eliminated) out.push(round.eliminated);
    return { ...round, votes };
  });
  const last = rounds[rounds.length - 1]!;
  return { ...result, rounds, votes: last.votes, totalVotes };
}

/** a stored vote's ballot, from its `choice` text (an option, or canonical JSON) */
export function storedBallot(
  system: VotingSystemName,
  votingOptions: readonly string[],
  choice: string,
): Ballot {
  const options = systemOptions(system, votingOptions);
  const value = system === 'single-choice' || system === 'basic' ? choice : JSON.parse(choice);
  const parsed = parseBallot(system, options, value);
  if (!parsed.ok) throw new Error(`a stored ${system} ballot does not parse: ${parsed.issue.message}`);
  return parsed.ballot;
}

/** what a counted ballot stores: `choice` text, and the JSON value for the array and object systems */
export function storedChoice(ballot: Ballot): {
  choice: string;
  ballot: string[] | Record<string, number> | null;
} {
  if (ballot.system === 'single-choice' || ballot.system === 'basic')
    return { choice: ballot.option, ballot: null };
  return {
    choice: canonicalBallot(ballot),
    ballot: ballotChoice(ballot) as string[] | Record<string, number>,
  };
}
