/**
 * basic: the fixed options For, Against, Abstain, counted as single-choice, so the For/Against rule applies
 * and Abstain counts toward the quorum only (docs/governance.md, "Voting systems").
 */

import { finalizeSingleChoice, parseSingleChoice, singleChoiceContribution } from './single-choice';
import type { BallotOf, Contribution, OptionAccumulator, ParsedBallot, SystemScores, Totals } from './types';

export const BASIC_OPTIONS: readonly string[] = Object.freeze(['For', 'Against', 'Abstain']);

export function parseBasic(choice: unknown): ParsedBallot<'basic'> {
  return parseSingleChoice(BASIC_OPTIONS, choice, 'basic');
}

export function basicContribution(ballot: BallotOf<'basic'>, weight: bigint): Contribution {
  return singleChoiceContribution(ballot, weight);
}

export function finalizeBasic(
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
): SystemScores {
  return finalizeSingleChoice(BASIC_OPTIONS, accumulators, totals, 'basic');
}
