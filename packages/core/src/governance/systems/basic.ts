/**
 * basic: the fixed options For, Against, Abstain, counted as single-choice, so the For/Against rule applies
 * and Abstain counts toward the quorum only (docs/governance.md, "Voting systems").
 */

import { FOR_AGAINST_ABSTAIN } from '@plenum/validators';
import { finalizeSingleChoice, parseSingleChoice, singleChoiceContribution } from './single-choice';
import type {
  BallotOf,
  Contribution,
  OptionAccumulator,
  ParsedBallot,
  SystemDefinition,
  SystemScores,
  Totals,
} from './types';

/** the options every basic proposal votes on (@plenum/validators: the web app shows the same) */
const BASIC_OPTIONS = FOR_AGAINST_ABSTAIN;

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

export const basic = {
  parse: (_options, choice) => parseBasic(choice),
  choice: (ballot) => ballot.option,
  support: 'choice',
  example: 'For',
  tally: {
    kind: 'incremental',
    contribution: basicContribution,
    finalize: (_options, accumulators, totals) => finalizeBasic(accumulators, totals),
    totalRows: false,
  },
} satisfies SystemDefinition<'basic'>;
