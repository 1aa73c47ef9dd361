/**
 * The voting systems on the tally rows (docs/governance.md, "Voting systems"): what a counted ballot adds
 * to the sharded running totals, and a system's scores read back from them. Results never read the votes
 * table. A system kept as running sums (systems/registry.ts) keeps one row per option in its
 * accumulator's unit, plus two total rows when a ballot may support several options or none (approval,
 * weighted, quadratic); a recounted system (ranked-choice) keeps one row per distinct ballot (at most 325
 * rankings with 5 options), and its count is computed from those.
 */

import { choiceIsOptionName, type VotingSystemName } from '@plenum/validators';
import {
  type Ballot,
  ballotChoice,
  canonicalBallot,
  type OptionAccumulator,
  parseBallot,
  type RankedChoiceResult,
  type SystemScores,
  systemOf,
  systemOptions,
} from './systems';
import type { OptionCount } from './tally';

/** total rows of the systems with `totalRows`: keys no option has (options are trimmed) */
export const VOTERS_KEY = ' voters';
export const DECIDED_KEY = ' decided';

/** one ballot as the tally rows it moves: key → { votes, weight } */
export function tallyDeltas(ballot: Ballot, weight: bigint): Map<string, OptionCount> {
  const { tally } = systemOf(ballot.system);
  if (tally.kind === 'recounted') return new Map([[canonicalBallot(ballot), { votes: 1, weight }]]);
  const c = tally.contribution(ballot, weight);
  const out = new Map<string, OptionCount>();
  for (const [o, a] of c.options) out.set(o, { votes: a.votes, weight: a.amount });
  if (tally.totalRows) {
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
  const { tally } = systemOf(system);
  if (tally.kind === 'recounted') return tally.fromRows(options, rows);
  const accumulators = new Map<string, OptionAccumulator>();
  for (const o of options) {
    const r = rows.get(o);
    if (r) accumulators.set(o, { votes: r.votes, amount: r.weight });
  }
  let voters: number;
  let weight: bigint;
  let decidedWeight: bigint;
  if (tally.totalRows) {
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
  return tally.finalize(options, accumulators, { voters, weight, decidedWeight });
}

/** a stored vote's ballot, from its `choice` text (an option, or canonical JSON) */
export function storedBallot(
  system: VotingSystemName,
  votingOptions: readonly string[],
  choice: string,
): Ballot {
  const options = systemOptions(system, votingOptions);
  const value = choiceIsOptionName(system) ? choice : JSON.parse(choice);
  const parsed = parseBallot(system, options, value);
  if (!parsed.ok) throw new Error(`a stored ${system} ballot does not parse: ${parsed.issue.message}`);
  return parsed.ballot;
}

/** what a counted ballot stores: `choice` text, and the JSON value for the array and object systems */
export function storedChoice(ballot: Ballot): {
  choice: string;
  ballot: string[] | Record<string, number> | null;
} {
  const value = ballotChoice(ballot);
  if (typeof value === 'string') return { choice: value, ballot: null };
  return { choice: canonicalBallot(ballot), ballot: value };
}
