/**
 * approval: a ballot approves any set of options, none included; each approved option gets the voter's
 * whole weight (as Snapshot's approval voting counts it). Exact on bigint (docs/governance.md, "Voting
 * systems").
 */

import { amountsOf, ballotTotals, checkWeight, issue, jsonType, matchOption } from './accumulators';
import type {
  BallotOf,
  Contribution,
  OptionAccumulator,
  ParsedBallot,
  SystemDefinition,
  SystemScores,
  Totals,
} from './types';

/** an array of distinct option names, possibly empty; normalized to the proposal's option order */
export function parseApproval(options: readonly string[], choice: unknown): ParsedBallot<'approval'> {
  if (!Array.isArray(choice))
    return {
      ok: false,
      issue: issue('invalid_type', `choice must be an array of option names, got ${jsonType(choice)}`),
    };
  const approved = new Set<string>();
  for (const name of choice) {
    const option = matchOption(options, name);
    if (typeof option !== 'string') return { ok: false, issue: option };
    if (approved.has(option))
      return { ok: false, issue: issue('duplicate_option', `"${option}" is approved twice`) };
    approved.add(option);
  }
  return { ok: true, ballot: { system: 'approval', approved: options.filter((o) => approved.has(o)) } };
}

export function approvalContribution(ballot: BallotOf<'approval'>, weight: bigint): Contribution {
  checkWeight(weight);
  return {
    options: new Map(ballot.approved.map((o) => [o, { votes: 1, amount: weight }])),
    totals: ballotTotals(weight, ballot.approved),
  };
}

/**
 * scores = the weight approving each option; decided = the weight of the ballots approving some option
 * other than Abstain (scores may add up to more than the weight cast)
 */
export function finalizeApproval(
  options: readonly string[],
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
): SystemScores {
  const { amounts, votes } = amountsOf(options, accumulators);
  return {
    system: 'approval',
    unit: 'integer',
    options: [...options],
    scores: amounts,
    votes,
    totalVotes: totals.voters,
    totalWeight: totals.weight,
    decided: totals.decidedWeight,
  };
}

export const approval = {
  parse: parseApproval,
  choice: (ballot) => [...ballot.approved],
  support: 'listed',
  example: ['Option A', 'Option C'],
  tally: {
    kind: 'incremental',
    contribution: approvalContribution,
    finalize: finalizeApproval,
    totalRows: true,
  },
} satisfies SystemDefinition<'approval'>;
