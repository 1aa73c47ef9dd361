/**
 * ranked-choice: instant runoff as Snapshot computes it (docs/governance.md, "Voting systems"). Each round
 * counts every ballot for its most preferred option still in the race; the race is the options still on
 * some ballot, taken in the proposal's order. The round ends the count when its leader has more than half
 * of the weight still counted, or when fewer than 3 options remain; otherwise the option with the least
 * weight is eliminated (on a tie, the earliest in the proposal's order, as Snapshot picks it), struck from
 * every ballot, and ballots left empty stop counting. The scores are the last round's. Exact on bigint; not
 * incremental: a function over all ballots.
 */

import type { OptionCount } from '../tally';
import { checkWeight, issue, jsonType, matchOption, nonAbstainSum } from './accumulators';
import type { BallotOf, ParsedBallot, RankedChoiceResult, RankedRound, SystemDefinition } from './types';

export type { RankedChoiceResult, RankedRound };

/** an array of distinct option names, most preferred first, some or all options; at least one */
export function parseRankedChoice(
  options: readonly string[],
  choice: unknown,
): ParsedBallot<'ranked-choice'> {
  if (!Array.isArray(choice))
    return {
      ok: false,
      issue: issue(
        'invalid_type',
        `choice must be an array of option names in order of preference, got ${jsonType(choice)}`,
      ),
    };
  if (choice.length === 0)
    return { ok: false, issue: issue('empty_ranking', 'choice must rank at least one option') };
  const ranking: string[] = [];
  for (const name of choice) {
    const option = matchOption(options, name);
    if (typeof option !== 'string') return { ok: false, issue: option };
    if (ranking.includes(option))
      return { ok: false, issue: issue('duplicate_option', `"${option}" is ranked twice`) };
    ranking.push(option);
  }
  return { ok: true, ballot: { system: 'ranked-choice', ranking } };
}

export interface RankedBallot {
  weight: bigint;
  ranking: readonly string[];
}

/**
 * Runs the count over every ballot. Ballots name the proposal's options (as parseRankedChoice returns
 * them); scores are the final round's, decided = Σ of the final round's non-Abstain scores, totalWeight
 * counts every ballot, exhausted ones included.
 */
export function tallyRankedChoice(
  options: readonly string[],
  ballots: Iterable<RankedBallot | (BallotOf<'ranked-choice'> & { weight: bigint })>,
): RankedChoiceResult {
  const index = new Map(options.map((o, i) => [o, i]));
  let active: { weight: bigint; ranking: number[] }[] = [];
  let totalVotes = 0;
  let totalWeight = 0n;
  for (const b of ballots) {
    checkWeight(b.weight);
    const ranking = b.ranking.map((o) => {
      const i = index.get(o);
      if (i === undefined) throw new RangeError(`"${o}" is not an option`);
      return i;
    });
    totalVotes += 1;
    totalWeight += b.weight;
    if (ranking.length > 0) active.push({ weight: b.weight, ranking });
  }

  const rounds: RankedRound[] = [];
  for (;;) {
    const inRace = new Set<number>();
    for (const b of active) for (const c of b.ranking) inRace.add(c);
    const race = [...inRace].sort((a, b) => a - b);
    const scores = options.map(() => 0n);
    const votes = options.map(() => 0);
    let remainingWeight = 0n;
    for (const b of active) {
      const first = b.ranking[0]!;
      scores[first]! += b.weight;
      votes[first]! += 1;
      remainingWeight += b.weight;
    }
    // the first strict maximum and the first strict minimum in the proposal's order, as Snapshot's reduce
    let top = -1;
    let bottom = -1;
    for (const c of race) {
      if (top < 0 || scores[c]! > scores[top]!) top = c;
      if (bottom < 0 || scores[c]! < scores[bottom]!) bottom = c;
    }
    const round: RankedRound = {
      round: rounds.length + 1,
      continuing: race.map((c) => options[c]!),
      scores,
      votes,
      remainingWeight,
      eliminated: null,
    };
    rounds.push(round);
    if ((top >= 0 && scores[top]! * 2n > remainingWeight) || race.length < 3) break;
    round.eliminated = options[bottom]!;
    active = active
      .map((b) => ({ weight: b.weight, ranking: b.ranking.filter((c) => c !== bottom) }))
      .filter((b) => b.ranking.length > 0);
  }

  const last = rounds[rounds.length - 1]!;
  return {
    system: 'ranked-choice',
    unit: 'integer',
    options: [...options],
    scores: last.scores,
    votes: last.votes,
    totalVotes,
    totalWeight,
    decided: nonAbstainSum(options, last.scores),
    rounds,
  };
}

/**
 * The count from the tally rows, one per distinct ranking (at most 325 with 5 options), keyed by its
 * canonical JSON: one entry per ranking carries the weight of all its ballots, as the runoff only sums
 * weights.
 */
function fromRows(options: readonly string[], rows: ReadonlyMap<string, OptionCount>): RankedChoiceResult {
  const ballots: { weight: bigint; ranking: string[] }[] = [];
  for (const [key, r] of rows) {
    if (!key.startsWith('[') || r.votes <= 0) continue;
    ballots.push({ weight: r.weight, ranking: JSON.parse(key) as string[] });
  }
  // the count above saw one ballot per distinct ranking: the real numbers of ballots come from the rows
  return withBallotCounts(tallyRankedChoice(options, ballots), rows);
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

export const rankedChoice = {
  parse: parseRankedChoice,
  choice: (ballot) => [...ballot.ranking],
  support: 'listed',
  example: ['Option B', 'Option A', 'Option C'],
  tally: {
    kind: 'recounted',
    count: (options, ballots) =>
      tallyRankedChoice(
        options,
        ballots.map(({ ballot, weight }) => ({ weight, ranking: ballot.ranking })),
      ),
    fromRows,
  },
} satisfies SystemDefinition<'ranked-choice'>;
