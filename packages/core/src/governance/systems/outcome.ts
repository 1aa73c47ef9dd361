/**
 * The outcome rule (docs/governance.md, "Outcome") over any system's scores (docs/governance.md, "Voting
 * systems"). Every comparison is on bigint: fixed-point scores are compared with weights scaled by 10^18,
 * threshold and quorum are scaled by 10^6 as in tally.ts.
 */

import { forAgainstOf } from '@plenum/validators';
import { isAbstain, percentOf, scaledPercent, winningOptionOf } from '../tally';
import { FIXED_SCALE, formatFixed } from './fixed-point';
import type { ScoreUnit, SystemScores } from './types';

export interface OutcomeRules {
  eligibleVoters: number;
  eligibleWeight: bigint;
  /** percent 1..100, up to 6 decimals */
  threshold: number | string;
  /** percent 0..100, up to 6 decimals */
  quorum: number | string;
}

export interface SystemOutcome {
  options: { option: string; votes: number; score: bigint; percent: number }[];
  unit: ScoreUnit;
  totalVotes: number;
  totalWeight: bigint;
  decided: bigint;
  turnoutPercent: number;
  quorumReached: boolean;
  winningOption: string | null;
  passing: boolean;
}

const PERCENT_SCALE = 1_000_000n;

/** a score as written in results: an integer string, or a decimal string with exactly 18 decimals */
export function formatScore(unit: ScoreUnit, score: bigint): string {
  return unit === 'fixed18' ? formatFixed(score) : score.toString();
}

/**
 * S(o) = scores, D = decided, T = total weight cast, E = eligible weight:
 * percent = S(o) / D × 100 (Abstain: S / T × 100); quorum ⇔ T × 100 ≥ quorum × E; winner = the non-Abstain
 * option with the greatest S, none on a tie or without score; passing as in "Outcome" with S and D.
 */
export function decideOutcome(s: SystemScores, rules: OutcomeRules): SystemOutcome {
  const scoreOf = new Map(s.options.map((o, i) => [o, s.scores[i]!]));
  const weightOf = (o: string) => scoreOf.get(o) ?? 0n;
  // the total weight in the scores' unit, for Abstain's percent
  const totalInUnit = s.unit === 'fixed18' ? s.totalWeight * FIXED_SCALE : s.totalWeight;
  const threshold = scaledPercent(rules.threshold);
  const quorum = scaledPercent(rules.quorum);
  const quorumReached = s.totalWeight * 100n * PERCENT_SCALE >= quorum * rules.eligibleWeight;
  const meetsThreshold = (w: bigint) => w * 100n * PERCENT_SCALE >= threshold * s.decided;
  const winningOption = winningOptionOf(s.options, weightOf);

  let passing: boolean;
  const yesNo = forAgainstOf(s.options);
  if (yesNo) {
    const { forOption, againstOption } = yesNo;
    const wFor = weightOf(forOption);
    passing = quorumReached && wFor > weightOf(againstOption) && meetsThreshold(wFor);
  } else {
    passing = quorumReached && winningOption !== null && meetsThreshold(weightOf(winningOption));
  }

  return {
    options: s.options.map((option, i) => {
      const score = s.scores[i]!;
      return {
        option,
        votes: s.votes[i]!,
        score,
        percent: isAbstain(option) ? percentOf(score, totalInUnit) : percentOf(score, s.decided),
      };
    }),
    unit: s.unit,
    totalVotes: s.totalVotes,
    totalWeight: s.totalWeight,
    decided: s.decided,
    turnoutPercent: percentOf(s.totalWeight, rules.eligibleWeight),
    quorumReached,
    winningOption,
    passing,
  };
}
