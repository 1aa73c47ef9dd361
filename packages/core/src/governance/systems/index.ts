/**
 * The counting layer of the voting systems (docs/governance.md, "Voting systems"): ballot checks, the
 * signed text of a ballot, running sums or a recount per system (registry.ts), and the outcome rule over
 * any system's scores. Pure functions; nothing here reads or writes storage.
 */

import { systemOptions } from '@plenum/validators';
import { badRequest } from '../../shared/errors';
import { type Accumulators, addContribution, emptyAccumulators, emptyTotals } from './accumulators';
import { canonicalChoice, canonicalJson } from './canonical';
import { apportion, FIXED_DECIMALS, FIXED_SCALE, formatFixed, isqrt } from './fixed-point';
import { decideOutcome, formatScore, type OutcomeRules, type SystemOutcome } from './outcome';
import {
  type RankedBallot,
  type RankedChoiceResult,
  type RankedRound,
  tallyRankedChoice,
} from './ranked-choice';
import { type IncrementalSystem, incrementalTally, systemOf } from './registry';
import type {
  Ballot,
  BallotErrorCode,
  BallotIssue,
  BallotOf,
  Choice,
  Contribution,
  OptionAccumulator,
  ParsedBallot,
  ScoreUnit,
  SystemDefinition,
  SystemScores,
  Totals,
  VotingSystem,
} from './types';

export { incrementalTally, systemOf } from './registry';
export { isVotingSystem, VOTING_SYSTEMS } from './types';
export {
  type Accumulators,
  addContribution,
  apportion,
  type Ballot,
  type BallotErrorCode,
  type BallotIssue,
  type BallotOf,
  type Choice,
  type Contribution,
  canonicalChoice,
  canonicalJson,
  decideOutcome,
  emptyAccumulators,
  emptyTotals,
  FIXED_DECIMALS,
  FIXED_SCALE,
  formatFixed,
  formatScore,
  isqrt,
  type OptionAccumulator,
  type OutcomeRules,
  type ParsedBallot,
  type RankedBallot,
  type RankedChoiceResult,
  type RankedRound,
  type ScoreUnit,
  type SystemDefinition,
  type SystemOutcome,
  type SystemScores,
  type Totals,
  tallyRankedChoice,
  type VotingSystem,
};

/**
 * Checks a vote's `choice` (the JSON value as sent) against the system and the proposal's options (each
 * system's `parse`: docs/governance.md, "Voting systems"). Names are trimmed and must then equal an option
 * exactly. Pass the options of systemOptions: a system with fixed options (basic) checks against those.
 * Returns the normalized ballot, or the issue on `choice` to answer with a 400.
 */
export function parseBallot(system: VotingSystem, options: readonly string[], choice: unknown): ParsedBallot {
  return systemOf(system).parse(options, choice);
}

/** parseBallot, or a 400 with the issue on `choice` */
export function requireBallot(system: VotingSystem, options: readonly string[], choice: unknown): Ballot {
  const parsed = parseBallot(system, options, choice);
  if (!parsed.ok) throw badRequest(`Invalid choice: ${parsed.issue.message}`, [parsed.issue]);
  return parsed.ballot;
}

/** the normalized ballot as a JSON value: an option name, an array of names, or an object name → points */
export function ballotChoice(ballot: Ballot): Choice {
  return systemOf(ballot.system).choice(ballot);
}

/** the normalized ballot's canonical text (canonicalChoice of ballotChoice) */
export function canonicalBallot(ballot: Ballot): string {
  return canonicalChoice(ballotChoice(ballot));
}

export { type IncrementalSystem, systemOptions };
export type IncrementalBallot = Extract<Ballot, { system: IncrementalSystem }>;

/** what one ballot of weight `weight` adds to the running sums of its system (subtract it to replace it) */
export function contribution(ballot: IncrementalBallot, weight: bigint): Contribution {
  return incrementalTally(ballot.system).contribution(ballot, weight);
}

/** the scores from the running sums (options absent from `accumulators` count 0) */
export function finalize(
  system: IncrementalSystem,
  options: readonly string[],
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
): SystemScores {
  return incrementalTally(system).finalize(options, accumulators, totals);
}

/** scores of a set of weighted ballots of one system, computed from scratch (tests, recounts) */
export function scoreBallots(
  system: VotingSystem,
  options: readonly string[],
  ballots: Iterable<{ ballot: Ballot; weight: bigint }>,
): SystemScores {
  const opts = systemOptions(system, options);
  const list = [...ballots];
  for (const { ballot } of list)
    if (ballot.system !== system) throw new TypeError(`a ${ballot.system} ballot in a ${system} count`);
  const { tally } = systemOf(system);
  if (tally.kind === 'recounted')
    return tally.count(opts, list as { ballot: BallotOf<typeof system>; weight: bigint }[]);
  let acc = emptyAccumulators();
  for (const { ballot, weight } of list) acc = addContribution(acc, tally.contribution(ballot, weight));
  return tally.finalize(opts, acc.options, acc.totals);
}
