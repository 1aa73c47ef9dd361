/**
 * single-choice: one option per ballot, the voter's whole weight to it; today's rule, exact on bigint
 * (docs/governance.md, "Outcome" and "Voting systems").
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
import type {
  BallotOf,
  Contribution,
  OptionAccumulator,
  ParsedBallot,
  SystemDefinition,
  SystemScores,
  Totals,
} from './types';

type SingleSystem = 'single-choice' | 'basic';

export function parseSingleChoice<S extends SingleSystem = 'single-choice'>(
  options: readonly string[],
  choice: unknown,
  system: S = 'single-choice' as S,
): ParsedBallot<S> {
  if (typeof choice !== 'string')
    return {
      ok: false,
      issue: issue('invalid_type', `choice must be an option name (a string), got ${jsonType(choice)}`),
    };
  const option = matchOption(options, choice);
  if (typeof option !== 'string') return { ok: false, issue: option };
  return { ok: true, ballot: { system, option } as BallotOf<S> };
}

export function singleChoiceContribution(ballot: BallotOf<SingleSystem>, weight: bigint): Contribution {
  checkWeight(weight);
  return {
    options: new Map([[ballot.option, { votes: 1, amount: weight }]]),
    totals: ballotTotals(weight, [ballot.option]),
  };
}

/** scores = the weights per option; decided = Σ of the non-Abstain weights */
export function finalizeSingleChoice(
  options: readonly string[],
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
  system: SingleSystem = 'single-choice',
): SystemScores {
  const { amounts, votes } = amountsOf(options, accumulators);
  return {
    system,
    unit: 'integer',
    options: [...options],
    scores: amounts,
    votes,
    totalVotes: totals.voters,
    totalWeight: totals.weight,
    decided: nonAbstainSum(options, amounts),
  };
}

export const singleChoice = {
  parse: (options, choice) => parseSingleChoice(options, choice),
  choice: (ballot) => ballot.option,
  support: 'choice',
  example: 'Option A',
  tally: {
    kind: 'incremental',
    contribution: singleChoiceContribution,
    finalize: (options, accumulators, totals) => finalizeSingleChoice(options, accumulators, totals),
    totalRows: false,
  },
} satisfies SystemDefinition<'single-choice'>;
