/**
 * What the API schemas and the web app know of each voting system (docs/governance.md, "Adding a voting
 * system"): its name, the ballot a voter fills in, and how its results read. The counting itself is in
 * packages/core (governance/systems/registry.ts), keyed by the same names.
 */

/** the basic system's options, and a new proposal's default options */
export const FOR_AGAINST_ABSTAIN: readonly string[] = Object.freeze(['For', 'Against', 'Abstain']);

/** Abstain (any case) counts toward turnout and quorum, never toward the decision */
export const isAbstain = (option: string) => option.toLowerCase() === 'abstain';

/** the For and Against options (any case) when both are there: then the yes/no rule applies */
export function forAgainstOf(
  options: readonly string[],
): { forOption: string; againstOption: string } | null {
  const find = (name: string) => options.find((o) => o.toLowerCase() === name);
  const forOption = find('for');
  const againstOption = find('against');
  return forOption !== undefined && againstOption !== undefined ? { forOption, againstOption } : null;
}

/**
 * How a ballot is filled in and sent: one option name (`single`), an array of names (`approval`, and
 * `ranked` most preferred first) or points per option (`points`).
 */
export type BallotKind = 'single' | 'approval' | 'ranked' | 'points';

export interface VotingSystemTraits {
  ballot: BallotKind;
  /** the options every proposal of this system votes on; null: the proposal's own */
  fixedOptions: readonly string[] | null;
  /** what the threshold is a share of, in words (the web's `votes.decided` messages) */
  decidedBase: 'votes' | 'approvals' | 'finalRound';
  /** a ballot may give its full weight to several options, so shares can add up to more than 100 % */
  sharesOverlap: boolean;
  /** points count by their square root (the ballot explains it) */
  squareRoot: boolean;
}

const traits = (ballot: BallotKind, more: Partial<VotingSystemTraits> = {}): VotingSystemTraits => ({
  ballot,
  fixedOptions: null,
  decidedBase: 'votes',
  sharesOverlap: false,
  squareRoot: false,
  ...more,
});

/** the systems in the order forms offer them; the stored names (packages/db) are checked equal in core */
export const VOTING_SYSTEM_NAMES = [
  'single-choice',
  'basic',
  'approval',
  'weighted',
  'quadratic',
  'ranked-choice',
] as const;
export type VotingSystemName = (typeof VOTING_SYSTEM_NAMES)[number];

export const VOTING_SYSTEM_TRAITS: Readonly<Record<VotingSystemName, VotingSystemTraits>> = {
  'single-choice': traits('single'),
  basic: traits('single', { fixedOptions: FOR_AGAINST_ABSTAIN }),
  approval: traits('approval', { decidedBase: 'approvals', sharesOverlap: true }),
  weighted: traits('points'),
  quadratic: traits('points', { squareRoot: true }),
  'ranked-choice': traits('ranked', { decidedBase: 'finalRound' }),
};

/** the options a proposal of this system votes on: the system's fixed ones, or the proposal's own */
export function systemOptions(system: VotingSystemName, votingOptions: readonly string[]): string[] {
  return [...(VOTING_SYSTEM_TRAITS[system].fixedOptions ?? votingOptions)];
}

/** a ballot of this system is one option name, sent, signed and stored as that text; others are JSON */
export const choiceIsOptionName = (system: VotingSystemName) =>
  VOTING_SYSTEM_TRAITS[system].ballot === 'single';
