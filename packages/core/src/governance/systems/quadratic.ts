/**
 * quadratic: a ballot gives points as in weighted voting; an option's raw score is (Σ over voters of
 * √(weight × share))², and the raw scores are scaled to add up to the weight cast (Snapshot's
 * calcReducedQuadraticScores). The running sum per option is Σ √(weight × share) in fixed point with 18
 * decimals; squaring and scaling happen at finalize (docs/governance.md, "Voting systems").
 */

import { amountsOf, ballotTotals, checkWeight, nonAbstainSum } from './accumulators';
import { apportion, FIXED_SCALE, isqrt } from './fixed-point';
import type {
  BallotOf,
  Contribution,
  OptionAccumulator,
  ParsedBallot,
  SystemDefinition,
  SystemScores,
  Totals,
} from './types';
import { exactPoints, parsePoints } from './weighted';

export function parseQuadratic(options: readonly string[], choice: unknown): ParsedBallot<'quadratic'> {
  return parsePoints('quadratic', options, choice);
}

const SCALE_SQUARED = FIXED_SCALE * FIXED_SCALE;

/** per option with points: ⌊√(weight × share) × 10^18⌋ = ⌊√(⌊weight × share × 10^36⌋)⌋, exactly */
export function quadraticContribution(ballot: BallotOf<'quadratic'>, weight: bigint): Contribution {
  checkWeight(weight);
  const { options, numerators } = exactPoints(ballot);
  const sum = numerators.reduce((a, b) => a + b, 0n);
  const map = new Map<string, OptionAccumulator>();
  const supported: string[] = [];
  options.forEach((o, i) => {
    const n = numerators[i]!;
    if (n === 0n) return;
    supported.push(o);
    map.set(o, { votes: 1, amount: isqrt((weight * n * SCALE_SQUARED) / sum) });
  });
  return { options: map, totals: ballotTotals(weight, supported) };
}

/**
 * raw score = amount² (scale 10^36); score = raw / Σ raw × weight cast, in fixed point, split by largest
 * remainder so the scores add up exactly to the weight cast; all 0 with no raw score. decided = Σ of the
 * non-Abstain scores.
 */
export function finalizeQuadratic(
  options: readonly string[],
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
): SystemScores {
  const { amounts, votes } = amountsOf(options, accumulators);
  const scores = apportion(
    totals.weight * FIXED_SCALE,
    amounts.map((a) => a * a),
  );
  return {
    system: 'quadratic',
    unit: 'fixed18',
    options: [...options],
    scores,
    votes,
    totalVotes: totals.voters,
    totalWeight: totals.weight,
    decided: nonAbstainSum(options, scores),
  };
}

export const quadratic = {
  parse: parseQuadratic,
  choice: (ballot) => ({ ...ballot.points }),
  support: 'points',
  example: { 'Option C': 3, 'Option A': 1 },
  tally: {
    kind: 'incremental',
    contribution: quadraticContribution,
    finalize: finalizeQuadratic,
    totalRows: true,
  },
} satisfies SystemDefinition<'quadratic'>;
