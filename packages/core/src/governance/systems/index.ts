/**
 * The counting layer of the voting systems (docs/governance.md, "Voting systems"): ballot checks, the
 * signed text of a ballot, running sums for every system but ranked-choice, the ranked-choice count, and
 * the outcome rule over any system's scores. Pure functions; nothing here reads or writes storage.
 */

import { badRequest } from '../../shared/errors';
import { type Accumulators, addContribution, emptyAccumulators, emptyTotals } from './accumulators';
import { approvalContribution, finalizeApproval, parseApproval } from './approval';
import { BASIC_OPTIONS, basicContribution, finalizeBasic, parseBasic } from './basic';
import { canonicalChoice, canonicalJson } from './canonical';
import { apportion, FIXED_DECIMALS, FIXED_SCALE, formatFixed, isqrt } from './fixed-point';
import { decideOutcome, formatScore, type OutcomeRules, type SystemOutcome } from './outcome';
import { finalizeQuadratic, parseQuadratic, quadraticContribution } from './quadratic';
import {
  parseRankedChoice,
  type RankedBallot,
  type RankedChoiceResult,
  type RankedRound,
  tallyRankedChoice,
} from './ranked-choice';
import { finalizeSingleChoice, parseSingleChoice, singleChoiceContribution } from './single-choice';
import type {
  Ballot,
  BallotErrorCode,
  BallotIssue,
  BallotOf,
  Contribution,
  IncrementalSystem,
  OptionAccumulator,
  ParsedBallot,
  ScoreUnit,
  SystemScores,
  Totals,
  VotingSystem,
} from './types';
import { finalizeWeighted, parseWeighted, weightedContribution } from './weighted';

export { isVotingSystem, VOTING_SYSTEMS } from './types';
export {
  type Accumulators,
  addContribution,
  apportion,
  BASIC_OPTIONS,
  type Ballot,
  type BallotErrorCode,
  type BallotIssue,
  type BallotOf,
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
  type IncrementalSystem,
  isqrt,
  type OptionAccumulator,
  type OutcomeRules,
  type ParsedBallot,
  type RankedBallot,
  type RankedChoiceResult,
  type RankedRound,
  type ScoreUnit,
  type SystemOutcome,
  type SystemScores,
  type Totals,
  tallyRankedChoice,
  type VotingSystem,
};

/** the options a proposal of this system votes on: basic always has For, Against, Abstain */
export function systemOptions(system: VotingSystem, votingOptions: readonly string[]): string[] {
  return system === 'basic' ? [...BASIC_OPTIONS] : [...votingOptions];
}

/**
 * Checks a vote's `choice` (the JSON value as sent) against the system and the proposal's options:
 * single-choice and basic take an option name; approval an array of distinct names (possibly empty);
 * weighted and quadratic an object name → points (finite, ≥ 0, one > 0 at least); ranked-choice a non-empty
 * array of distinct names. Names are trimmed and must then equal an option exactly. A basic proposal's
 * options are always For, Against, Abstain (`options` is not consulted). Returns the normalized
 * ballot, or the issue on `choice` to answer with a 400.
 */
export function parseBallot(system: VotingSystem, options: readonly string[], choice: unknown): ParsedBallot {
  switch (system) {
    case 'single-choice':
      return parseSingleChoice(options, choice);
    case 'basic':
      return parseBasic(choice);
    case 'approval':
      return parseApproval(options, choice);
    case 'weighted':
      return parseWeighted(options, choice);
    case 'quadratic':
      return parseQuadratic(options, choice);
    case 'ranked-choice':
      return parseRankedChoice(options, choice);
  }
}

/** parseBallot, or a 400 with the issue on `choice` */
export function requireBallot(system: VotingSystem, options: readonly string[], choice: unknown): Ballot {
  const parsed = parseBallot(system, options, choice);
  if (!parsed.ok) throw badRequest(`Invalid choice: ${parsed.issue.message}`, [parsed.issue]);
  return parsed.ballot;
}

/** the normalized ballot as a JSON value: an option name, an array of names, or an object name → points */
export function ballotChoice(ballot: Ballot): string | string[] | Record<string, number> {
  switch (ballot.system) {
    case 'single-choice':
    case 'basic':
      return ballot.option;
    case 'approval':
      return [...ballot.approved];
    case 'weighted':
    case 'quadratic':
      return { ...ballot.points };
    case 'ranked-choice':
      return [...ballot.ranking];
  }
}

/** the normalized ballot's canonical text (canonicalChoice of ballotChoice) */
export function canonicalBallot(ballot: Ballot): string {
  return canonicalChoice(ballotChoice(ballot));
}

export type IncrementalBallot = Extract<Ballot, { system: IncrementalSystem }>;

/** what one ballot of weight `weight` adds to the running sums of its system (subtract it to replace it) */
export function contribution(ballot: IncrementalBallot, weight: bigint): Contribution {
  switch (ballot.system) {
    case 'single-choice':
      return singleChoiceContribution(ballot, weight);
    case 'basic':
      return basicContribution(ballot, weight);
    case 'approval':
      return approvalContribution(ballot, weight);
    case 'weighted':
      return weightedContribution(ballot, weight);
    case 'quadratic':
      return quadraticContribution(ballot, weight);
  }
}

/** the scores from the running sums (options absent from `accumulators` count 0) */
export function finalize(
  system: IncrementalSystem,
  options: readonly string[],
  accumulators: ReadonlyMap<string, OptionAccumulator>,
  totals: Totals,
): SystemScores {
  switch (system) {
    case 'single-choice':
      return finalizeSingleChoice(options, accumulators, totals);
    case 'basic':
      return finalizeBasic(accumulators, totals);
    case 'approval':
      return finalizeApproval(options, accumulators, totals);
    case 'weighted':
      return finalizeWeighted(options, accumulators, totals);
    case 'quadratic':
      return finalizeQuadratic(options, accumulators, totals);
  }
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
  if (system === 'ranked-choice') {
    return tallyRankedChoice(
      opts,
      list.map(({ ballot, weight }) => ({ weight, ranking: (ballot as BallotOf<'ranked-choice'>).ranking })),
    );
  }
  let acc = emptyAccumulators();
  for (const { ballot, weight } of list)
    acc = addContribution(acc, contribution(ballot as IncrementalBallot, weight));
  return finalize(system, opts, acc.options, acc.totals);
}
