import {
  forAgainstOf,
  isAbstain,
  VOTING_SYSTEM_TRAITS,
  type VotingSystemName,
} from '@plenum/validators/voting-systems';
import { byScore, scoreUnits } from './format';
import type { ProposalStatus, Results } from './types';

/**
 * Why a proposal does not pass, in the rule's order (docs/governance.md, "Outcome"): no votes at all;
 * the quorum; no weight that decides (only Abstain, or approvals of nothing); For not ahead of Against
 * (`againstAhead`, or `tie` when equal); no single leader (`tie`); the threshold.
 */
export type Shortfall = 'noVotes' | 'quorum' | 'noDecided' | 'againstAhead' | 'tie' | 'threshold';

/** What "decided weight", the threshold's base, is for a proposal's system and options. */
export type Decided =
  | 'votes'
  | 'votesButAbstain'
  | 'approvals'
  | 'approvalsButAbstain'
  | 'finalRound'
  | 'finalRoundButAbstain';

export interface Verdict {
  /** `forAgainst`: options hold For and Against, For must beat Against; `leader`: one option must lead */
  rule: 'forAgainst' | 'leader';
  /** the option measured against the threshold: For, or the single leader (null on a tie or no weight) */
  supportOption: string | null;
  /** For's or the leader's share of the decided weight (the top share on a tie) */
  supportPercent: number;
  /** For and Against as the proposal spells them (rule `forAgainst`) */
  forOption: string | null;
  againstOption: string | null;
  thresholdMet: boolean;
  /** the API's answer as of now (the final one once the proposal ended) */
  passing: boolean;
  /** empty when passing */
  shortfalls: Shortfall[];
}

/** For and Against among the options (ignoring case, as the API matches them): the yes/no rule applies */
export function ruleOf(options: readonly string[]) {
  const yesNo = forAgainstOf(options);
  return yesNo
    ? { rule: 'forAgainst' as const, ...yesNo }
    : { rule: 'leader' as const, forOption: null, againstOption: null };
}

/** the threshold's base in words: "every vote but Abstain", "the ballots approving an option", … */
export function decidedOf(votingSystem: VotingSystemName, options: readonly string[]): Decided {
  const base = VOTING_SYSTEM_TRAITS[votingSystem].decidedBase;
  return options.some(isAbstain) ? `${base}ButAbstain` : base;
}

/**
 * The one verdict the Results card shows, from the API's results: the same rule the API decides by
 * (packages/core decideOutcome), read back from its figures so that the support bar, its tick and colour,
 * and the sentence under the bars never disagree. `passing` is the API's (or the final status); the
 * shortfalls only say why. Null while the results are hidden: nothing is said about passing then.
 */
export function verdictOf(results: Results, status: ProposalStatus = results.status): Verdict | null {
  if (results.hidden) return null;
  const options = results.options;
  const { rule, forOption, againstOption } = ruleOf(options.map((o) => o.option));
  const forO = options.find((o) => o.option === forOption);
  const againstO = options.find((o) => o.option === againstOption);
  const decided = options.filter((o) => !isAbstain(o.option));
  const hasDecided = decided.some((o) => scoreUnits(o.weight) > 0n);
  const ended = status === 'PASSED' || status === 'REJECTED';
  const passing = ended ? status === 'PASSED' : results.passing === true;

  let supportOption: string | null;
  let supportPercent: number;
  let ahead: boolean;
  let behind: Shortfall | null = null;
  if (forO && againstO) {
    supportOption = forO.option;
    supportPercent = forO.percent;
    const f = scoreUnits(forO.weight);
    const a = scoreUnits(againstO.weight);
    ahead = f > a;
    if (!ahead && hasDecided) behind = f === a ? 'tie' : 'againstAhead';
  } else {
    const leader = results.winningOption
      ? options.find((o) => o.option === results.winningOption)
      : undefined;
    supportOption = leader?.option ?? null;
    supportPercent = leader?.percent ?? byScore(decided)[0]?.percent ?? 0;
    ahead = !!leader;
    if (!ahead && hasDecided) behind = 'tie';
  }

  // passing means every criterion holds; with the quorum reached and For (or a leader) ahead, only the
  // threshold can be what fails; otherwise the share as shown decides the tick
  const thresholdMet = passing
    ? true
    : results.quorumReached && ahead
      ? false
      : hasDecided && supportOption !== null && supportPercent >= results.threshold;

  const shortfalls: Shortfall[] = [];
  if (!passing) {
    if (results.totalVotes === 0) shortfalls.push('noVotes');
    else {
      if (!results.quorumReached) shortfalls.push('quorum');
      if (!hasDecided) shortfalls.push('noDecided');
      else if (behind) shortfalls.push(behind);
      else if (!thresholdMet) shortfalls.push('threshold');
      // the API said no and the figures as rounded say every criterion holds: a share a hair under it
      if (shortfalls.length === 0) shortfalls.push('threshold');
    }
  }
  return {
    rule,
    supportOption,
    supportPercent,
    forOption,
    againstOption,
    thresholdMet: thresholdMet && !shortfalls.includes('threshold'),
    passing,
    shortfalls,
  };
}
