/**
 * Shapes shared by the voting systems (docs/governance.md, "Voting systems"). Weights are bigint token
 * units, as everywhere in governance; option lists are the proposal's options in their order.
 */

import { VOTING_SYSTEM_NAMES, type VotingSystemName } from '@plenum/db';
import type { VotingSystemName as VotingSystemInput } from '@plenum/validators';
import type { FieldIssue } from '../../shared/errors';
import type { OptionCount } from '../tally';

/** the stored names (the database's list; the API's enum in validators is checked equal below) */
export const VOTING_SYSTEMS = VOTING_SYSTEM_NAMES;
export type VotingSystem = VotingSystemName;
// a compile error here means the API's enum and the stored names differ
const _sameNames: [VotingSystemName, VotingSystemInput] extends [VotingSystemInput, VotingSystemName]
  ? true
  : never = true;

export const isVotingSystem = (s: unknown): s is VotingSystem =>
  typeof s === 'string' && (VOTING_SYSTEMS as readonly string[]).includes(s);

/** a checked ballot; option names are exactly the proposal's (trimmed on input); one line per system */
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

/** one round of a count in rounds (ranked-choice) */
export interface RankedRound {
  /** 1, 2, … */
  round: number;
  /** the options in the race this round, in the proposal's order */
  continuing: string[];
  /** per option in the proposal's order; 0 for an option not in the race */
  scores: bigint[];
  /** per option: ballots counted for it this round */
  votes: number[];
  /** weight of the ballots still counted (Σ scores) */
  remainingWeight: bigint;
  /** struck out after this round; null in the last round */
  eliminated: string | null;
}

export interface RankedChoiceResult extends SystemScores {
  system: 'ranked-choice';
  rounds: RankedRound[];
}

/** a ballot as a JSON value: an option name, an array of names, or an object name → points */
export type Choice = string | string[] | Record<string, number>;

/**
 * Kept as running sums: a ballot's contribution is added when it is counted and subtracted when it is
 * replaced, and every vote's event carries the results right after it.
 */
export interface IncrementalTally<S extends VotingSystem> {
  kind: 'incremental';
  contribution(ballot: BallotOf<S>, weight: bigint): Contribution;
  /** the scores from the running sums (options absent from `accumulators` count 0) */
  finalize(
    options: readonly string[],
    accumulators: ReadonlyMap<string, OptionAccumulator>,
    totals: Totals,
  ): SystemScores;
  /**
   * The tally rows keep the totals in two rows of their own: a ballot may support several options or
   * none. Without them (one option per ballot) the totals are the sums over the options.
   */
  totalRows: boolean;
}

/**
 * Counted over all ballots at once: the tally rows keep one row per distinct ballot (its canonical text)
 * and a batch of votes' events carry the results after the whole batch.
 */
export interface RecountedTally<S extends VotingSystem> {
  kind: 'recounted';
  count(
    options: readonly string[],
    ballots: readonly { ballot: BallotOf<S>; weight: bigint }[],
  ): SystemScores;
  /** the scores from the summed rows, keyed by canonical ballot text (rows of other keys are ignored) */
  fromRows(
    options: readonly string[],
    rows: ReadonlyMap<string, OptionCount>,
  ): SystemScores | RankedChoiceResult;
}

/**
 * One voting system (docs/governance.md, "Adding a voting system"); registry.ts holds one per name.
 * What the web app needs too (the ballot kind, fixed options, how a choice is written) is in
 * @plenum/validators' VOTING_SYSTEM_TRAITS.
 */
export interface SystemDefinition<S extends VotingSystem> {
  /** checks a vote's `choice` (the JSON value as sent) against the proposal's options */
  parse(options: readonly string[], choice: unknown): ParsedBallot<S>;
  /** the normalized ballot as a JSON value; its canonical text is what is signed and stored */
  choice(ballot: BallotOf<S>): Choice;
  /**
   * Which stored votes support an option, for the votes filter: `choice` = the stored option itself;
   * `listed` = named in the `ballot` array; `points` = above 0 in the `ballot` object.
   */
  support: 'choice' | 'listed' | 'points';
  /** a ballot over the options Option A, B, C: the example GET /eip712/vote shows */
  example: Choice;
  tally: IncrementalTally<S> | RecountedTally<S>;
}
