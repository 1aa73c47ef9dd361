/**
 * Running sums of the incremental systems (docs/governance.md, "Voting systems"): per option { votes,
 * amount } plus totals. A ballot's contribution is added when the vote is counted and subtracted when it is
 * replaced; sums of bigints and integers are exact, so the result never depends on the order.
 */

import { isAbstain } from '../tally';
import type { BallotErrorCode, BallotIssue, Contribution, OptionAccumulator, Totals } from './types';

/** running sums of a proposal: the same shape as one ballot's contribution */
export interface Accumulators {
  options: Map<string, OptionAccumulator>;
  totals: Totals;
}

export const emptyTotals = (): Totals => ({ voters: 0, weight: 0n, decidedWeight: 0n });

export const emptyAccumulators = (): Accumulators => ({ options: new Map(), totals: emptyTotals() });

/** acc + sign × c, as a new value (sign −1 takes a replaced vote out) */
export function addContribution(acc: Accumulators, c: Contribution, sign: 1 | -1 = 1): Accumulators {
  const options = new Map<string, OptionAccumulator>();
  for (const [o, a] of acc.options) options.set(o, { ...a });
  for (const [o, d] of c.options) {
    const cur = options.get(o) ?? { votes: 0, amount: 0n };
    const next = { votes: cur.votes + sign * d.votes, amount: cur.amount + BigInt(sign) * d.amount };
    if (next.votes === 0 && next.amount === 0n) options.delete(o);
    else options.set(o, next);
  }
  return {
    options,
    totals: {
      voters: acc.totals.voters + sign * c.totals.voters,
      weight: acc.totals.weight + BigInt(sign) * c.totals.weight,
      decidedWeight: acc.totals.decidedWeight + BigInt(sign) * c.totals.decidedWeight,
    },
  };
}

export function checkWeight(weight: bigint): void {
  if (typeof weight !== 'bigint' || weight < 0n) throw new RangeError('a vote weight is a bigint ≥ 0');
}

/** the totals of one ballot: it decides when it supports some option other than Abstain */
export function ballotTotals(weight: bigint, supported: readonly string[]): Totals {
  return { voters: 1, weight, decidedWeight: supported.some((o) => !isAbstain(o)) ? weight : 0n };
}

export const issue = (code: BallotErrorCode, message: string): BallotIssue => ({
  path: 'choice',
  code,
  message,
});

/** per option, in `options` order, from running sums where absent options count 0 */
export function amountsOf(options: readonly string[], acc: ReadonlyMap<string, OptionAccumulator>) {
  return {
    amounts: options.map((o) => acc.get(o)?.amount ?? 0n),
    votes: options.map((o) => acc.get(o)?.votes ?? 0),
  };
}

/** Σ of the non-Abstain scores: the threshold's base for every system but approval */
export function nonAbstainSum(options: readonly string[], scores: readonly bigint[]): bigint {
  let sum = 0n;
  options.forEach((o, i) => {
    if (!isAbstain(o)) sum += scores[i]!;
  });
  return sum;
}

/**
 * Option names in a choice: trimmed, then matched exactly against the proposal's options (as today's
 * single choice is). Returns the option or an issue.
 */
export function matchOption(options: readonly string[], name: unknown): string | BallotIssue {
  if (typeof name !== 'string')
    return issue('invalid_type', `an option name must be a string, got ${jsonType(name)}`);
  const wanted = name.trim();
  const found = options.find((o) => o === wanted);
  return found ?? issue('unknown_option', `"${wanted}" is not an option; options are: ${options.join(', ')}`);
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
