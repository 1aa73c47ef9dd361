/**
 * weighted: a ballot gives points to options and the voter's weight is split in proportion to them
 * (Snapshot's weighted voting). Fixed point with 18 decimals (docs/governance.md, "Voting systems").
 */

import {
  amountsOf,
  ballotTotals,
  checkWeight,
  issue,
  jsonType,
  matchOption,
  nonAbstainSum,
} from './accumulators';
import { apportion, commonNumerators, FIXED_SCALE } from './fixed-point';
import type {
  BallotOf,
  Contribution,
  OptionAccumulator,
  ParsedBallot,
  SystemDefinition,
  SystemScores,
  Totals,
} from './types';

type PointsSystem = 'weighted' | 'quadratic';

/**
 * An object option → points: each name an option (trimmed, once), each value a finite number ≥ 0
 * (fractions allowed), at least one > 0. Normalized to the proposal's option order, -0 as 0.
 */
export function parsePoints<S extends PointsSystem>(
  system: S,
  options: readonly string[],
  choice: unknown,
): ParsedBallot<S> {
  if (typeof choice !== 'object' || choice === null || Array.isArray(choice))
    return {
      ok: false,
      issue: issue(
        'invalid_type',
        `choice must be an object of option name → points, got ${jsonType(choice)}`,
      ),
    };
  const given = new Map<string, number>();
  for (const [name, value] of Object.entries(choice)) {
    const option = matchOption(options, name);
    if (typeof option !== 'string') return { ok: false, issue: option };
    if (given.has(option))
      return { ok: false, issue: issue('duplicate_option', `"${option}" is given twice`) };
    if (typeof value !== 'number')
      return {
        ok: false,
        issue: issue('invalid_type', `points for "${option}" must be a number, got ${jsonType(value)}`),
      };
    if (!Number.isFinite(value) || value < 0)
      return {
        ok: false,
        issue: issue('invalid_points', `points for "${option}" must be a finite number ≥ 0, got ${value}`),
      };
    given.set(option, value === 0 ? 0 : value);
  }
  if (![...given.values()].some((v) => v > 0))
    return { ok: false, issue: issue('no_points', 'choice must give points > 0 to at least one option') };
  // own properties even for an option named "__proto__"
  const points: Record<string, number> = Object.fromEntries(
    options.filter((o) => given.has(o)).map((o) => [o, given.get(o)!]),
  );
  return { ok: true, ballot: { system, points } as BallotOf<S> };
}

export function parseWeighted(options: readonly string[], choice: unknown): ParsedBallot<'weighted'> {
  return parsePoints('weighted', options, choice);
}

/** the ballot's options and their points as exact integers with the same ratios */
export function exactPoints(ballot: BallotOf<PointsSystem>): { options: string[]; numerators: bigint[] } {
  const entries = Object.entries(ballot.points);
  return { options: entries.map(([o]) => o), numerators: commonNumerators(entries.map(([, p]) => p)) };
}

/**
 * weight × 10^18 split in proportion to the points (largest remainder, so a ballot adds exactly its
 * weight); an option with points > 0 counts one vote
 */
export function weightedContribution(ballot: BallotOf<'weighted'>, weight: bigint): Contribution {
  checkWeight(weight);
  const { options, numerators } = exactPoints(ballot);
  const shares = apportion(weight * FIXED_SCALE, numerators);
  const map = new Map<string, OptionAccumulator>();
  const supported: string[] = [];
  options.forEach((o, i) => {
    const votes = numerators[i]! > 0n ? 1 : 0;
    if (votes) supported.push(o);
    if (votes || shares[i]! !== 0n) map.set(o, { votes, amount: shares[i]! });
  });
  return { options: map, totals: ballotTotals(weight, supported) };
}

/**
 * Snapshot rescales the option sums so that they add up to the weight cast: score = sum / Σ sums × total.
 * Every ballot adds exactly its weight, so Σ sums = total × 10^18 and the rescale (done exactly) returns the
 * sums unchanged. decided = Σ of the non-Abstain scores.
 */
export function finalizeWeighted(
  options: readonly string[],
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
): SystemScores {
  const { amounts, votes } = amountsOf(options, accumulators);
  const scores = apportion(totals.weight * FIXED_SCALE, amounts);
  return {
    system: 'weighted',
    unit: 'fixed18',
    options: [...options],
    scores,
    votes,
    totalVotes: totals.voters,
    totalWeight: totals.weight,
    decided: nonAbstainSum(options, scores),
  };
}

export const weighted = {
  parse: parseWeighted,
  choice: (ballot) => ({ ...ballot.points }),
  support: 'points',
  example: { 'Option B': 1, 'Option A': 2.5 },
  tally: {
    kind: 'incremental',
    contribution: weightedContribution,
    finalize: finalizeWeighted,
    totalRows: true,
  },
} satisfies SystemDefinition<'weighted'>;
