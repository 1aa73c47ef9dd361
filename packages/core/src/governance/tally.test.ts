import { describe, expect, it } from 'vitest';
import { scoresFromTallies } from './system-tallies';
import { decideOutcome, type OutcomeRules } from './systems';
import { type OptionCount, percentOf } from './tally';

const FAA = ['For', 'Against', 'Abstain'];

/** equal voting: weight = number of votes */
function counts(byOption: Record<string, number | [number, bigint]>): Map<string, OptionCount> {
  return new Map(
    Object.entries(byOption).map(([o, v]) => [
      o,
      Array.isArray(v) ? { votes: v[0], weight: v[1] } : { votes: v, weight: BigInt(v) },
    ]),
  );
}

/** the rule as results apply it: single-choice scores from the tally rows, then decideOutcome */
function computeOutcome({
  options,
  counts,
  ...rules
}: OutcomeRules & { options: string[]; counts: ReadonlyMap<string, OptionCount> }) {
  return decideOutcome(scoresFromTallies('single-choice', options, counts), rules);
}

interface Case {
  name: string;
  options?: string[];
  votes: Record<string, number | [number, bigint]>;
  eligible?: [number, bigint];
  threshold?: number | string;
  quorum?: number | string;
  winning: string | null;
  passing: boolean;
  quorumReached?: boolean;
  percents?: Record<string, number>;
  turnout?: number;
}

const cases: Case[] = [
  {
    name: 'worked example (docs/governance.md): For 3, Against 2, Abstain 1 of 10 → passes',
    votes: { For: 3, Against: 2, Abstain: 1 },
    quorum: 20,
    winning: 'For',
    passing: true,
    quorumReached: true,
    percents: { For: 60, Against: 40, Abstain: 16.67 },
    turnout: 60,
  },
  {
    name: 'worked example (docs/governance.md): For 2, Against 2 tie → rejected',
    votes: { For: 2, Against: 2 },
    quorum: 20,
    winning: null,
    passing: false,
  },
  {
    name: 'worked example (docs/governance.md): 60 % under threshold 66 → rejected',
    votes: { For: 6, Against: 4 },
    threshold: 66,
    winning: 'For',
    passing: false,
  },
  {
    name: 'worked example (docs/governance.md): A/B/C 2/2/1 tie at the top → rejected',
    options: ['A', 'B', 'C'],
    votes: { A: 2, B: 2, C: 1 },
    winning: null,
    passing: false,
  },
  {
    name: 'worked example (docs/governance.md): no votes → rejected',
    votes: {},
    winning: null,
    passing: false,
    turnout: 0,
    percents: { For: 0, Against: 0, Abstain: 0 },
  },
  {
    name: 'threshold met exactly (60 % of 60) passes',
    votes: { For: 6, Against: 4 },
    threshold: 60,
    winning: 'For',
    passing: true,
  },
  {
    name: 'fractional threshold just above the share fails',
    votes: { For: 6, Against: 4 },
    threshold: '60.000001',
    winning: 'For',
    passing: false,
  },
  {
    name: 'quorum met exactly (2 of 10 at 20 %)',
    votes: { For: 2 },
    quorum: 20,
    winning: 'For',
    passing: true,
    quorumReached: true,
  },
  {
    name: 'quorum missed by one vote',
    votes: { For: 1 },
    quorum: 20,
    winning: 'For',
    passing: false,
    quorumReached: false,
  },
  {
    name: 'Abstain counts toward quorum',
    votes: { For: 1, Abstain: 1 },
    quorum: 20,
    winning: 'For',
    passing: true,
    quorumReached: true,
    percents: { For: 100, Abstain: 50 },
  },
  {
    name: 'only Abstain: no winner',
    votes: { Abstain: 5 },
    winning: null,
    passing: false,
    percents: { Abstain: 100, For: 0 },
  },
  {
    name: 'For beats Against but both below threshold 75',
    votes: { For: 7, Against: 3 },
    threshold: 75,
    winning: 'For',
    passing: false,
  },
  { name: 'Against wins', votes: { For: 3, Against: 7 }, winning: 'Against', passing: false },
  {
    name: 'plural options: clear winner over threshold',
    options: ['A', 'B', 'C'],
    votes: { A: 3, B: 1, C: 1 },
    threshold: 50,
    winning: 'A',
    passing: true,
    percents: { A: 60, B: 20, C: 20 },
  },
  {
    name: 'plural options: winner under threshold',
    options: ['A', 'B', 'C'],
    votes: { A: 2, B: 2, C: 3 },
    threshold: 50,
    winning: 'C',
    passing: false,
  },
  {
    name: 'options recognised ignoring case',
    options: ['for', 'AGAINST', 'abstain'],
    votes: { for: 2, AGAINST: 1, abstain: 9 },
    winning: 'for',
    passing: true,
  },
  {
    name: 'token weights beyond 2^64 stay exact',
    votes: { For: [1, 2n ** 200n + 1n], Against: [2, 2n ** 200n] },
    eligible: [3, 2n ** 201n + 1n],
    threshold: 50,
    winning: 'For',
    passing: true,
    percents: { For: 50, Against: 50 },
    turnout: 100,
  },
];

describe('outcome rule', () => {
  it.each(cases)('$name', (c) => {
    const options = c.options ?? FAA;
    const [eligibleVoters, eligibleWeight] = c.eligible ?? [10, 10n];
    const out = computeOutcome({
      options,
      counts: counts(c.votes),
      eligibleVoters,
      eligibleWeight,
      threshold: c.threshold ?? 50,
      quorum: c.quorum ?? 0,
    });
    expect(out.winningOption).toBe(c.winning);
    expect(out.passing).toBe(c.passing);
    if (c.quorumReached !== undefined) expect(out.quorumReached).toBe(c.quorumReached);
    if (c.turnout !== undefined) expect(out.turnoutPercent).toBe(c.turnout);
    for (const [option, percent] of Object.entries(c.percents ?? {})) {
      expect(out.options.find((o) => o.option === option)?.percent, option).toBe(percent);
    }
  });

  it('sums votes and weights exactly', () => {
    const out = computeOutcome({
      options: FAA,
      counts: counts({ For: [2, 10n ** 30n], Abstain: [1, 5n] }),
      eligibleVoters: 5,
      eligibleWeight: 10n ** 31n,
      threshold: 50,
      quorum: 0,
    });
    expect(out.totalVotes).toBe(3);
    expect(out.totalWeight).toBe(10n ** 30n + 5n);
    expect(out.decided).toBe(10n ** 30n);
  });

  it('rounds percentages half up to 2 decimals and 0 for an empty divisor', () => {
    expect(percentOf(1n, 6n)).toBe(16.67);
    expect(percentOf(1n, 3n)).toBe(33.33);
    expect(percentOf(2n, 3n)).toBe(66.67);
    expect(percentOf(1n, 8n)).toBe(12.5);
    expect(percentOf(1n, 0n)).toBe(0);
  });
});
