/**
 * Shapes shared by the voting systems (docs/governance.md, "Voting systems"). Weights are bigint token
 * units, as everywhere in governance; option lists are the proposal's options in their order.
 */

import { VOTING_SYSTEM_NAMES, type VotingSystemName } from '@plenum/db';
import type { VotingSystemName as VotingSystemInput } from '@plenum/validators';
import type { FieldIssue } from '../../shared/errors';

/** the stored names (the database's list; the API's enum in validators is checked equal below) */
export const VOTING_SYSTEMS = VOTING_SYSTEM_NAMES;
export type VotingSystem = VotingSystemName;
// a compile error here means the API's enum and the stored names differ
const _sameNames: [VotingSystemName, VotingSystemInput] extends [VotingSystemInput, VotingSystemName]
  ? true
  : never = true;

/** the systems whose results are kept as running sums (all but ranked-choice) */
export type IncrementalSystem = Exclude<VotingSystem, 'ranked-choice'>;

export const isVotingSystem = (s: unknown): s is VotingSystem =>
  typeof s === 'string' && (VOTING_SYSTEMS as readonly string[]).includes(s);

/** a checked ballot; option names are exactly the proposal's (trimmed on input) */
export type Ballot =
  | { system: 'single-choice'; option: string }
  | { system: 'basic'; option: string }
  /** approved options in the proposal's order; empty = approves none (still a vote) */
  | { system: 'approval'; approved: string[] }
  /** points by option, in the proposal's order; at least one > 0 */
  | { system: 'weighted'; points: Record<string, number> }
  | { system: 'quadratic'; points: Record<string, number> }
  /** most preferred first; some or all options */
  | { system: 'ranked-choice'; ranking: string[] };

export type BallotOf<S extends VotingSystem> = Extract<Ballot, { system: S }>;

export type BallotErrorCode =
  | 'invalid_type'
  | 'unknown_option'
  | 'duplicate_option'
  | 'invalid_points'
  | 'no_points'
  | 'empty_ranking';

/** why a choice is refused: a field issue on `choice` for a 400 */
export interface BallotIssue extends FieldIssue {
  path: 'choice';
  code: BallotErrorCode;
}

export type ParsedBallot<S extends VotingSystem = VotingSystem> =
  | { ok: true; ballot: BallotOf<S> }
  | { ok: false; issue: BallotIssue };

/**
 * How scores are written: `integer` = whole weight units (single-choice, basic, approval, ranked-choice);
 * `fixed18` = fixed point, amount / 10^18 weight units (weighted, quadratic).
 */
export type ScoreUnit = 'integer' | 'fixed18';

/** one option's running sums: ballots that support it, and its amount in the system's accumulator unit */
export interface OptionAccumulator {
  votes: number;
  amount: bigint;
}

/** the running sums over all ballots that are not per option */
export interface Totals {
  /** ballots counted */
  voters: number;
  /** their weight, each voter once (the quorum's numerator) */
  weight: bigint;
  /** weight of the ballots that support at least one option other than Abstain */
  decidedWeight: bigint;
}

/**
 * What one ballot adds to the running sums; subtract the same contribution when the vote is replaced. It
 * depends only on the ballot and the weight, so sums are the same in any order.
 */
export interface Contribution {
  /** only the options this ballot touches */
  options: Map<string, OptionAccumulator>;
  totals: Totals;
}

/** a system's scores over all ballots, ready for the outcome rule */
export interface SystemScores {
  system: VotingSystem;
  unit: ScoreUnit;
  options: string[];
  /** per option, in `options` order, in `unit` */
  scores: bigint[];
  /** per option: ballots supporting it (ranked-choice: ballots counted for it in the final round) */
  votes: number[];
  totalVotes: number;
  /** integer weight units, each voter once */
  totalWeight: bigint;
  /** the threshold's base (docs/governance.md, "Voting systems"), in `unit` */
  decided: bigint;
}
