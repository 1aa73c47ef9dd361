import { describe, expect, it } from 'vitest';
import { scoresFromTallies } from '../system-tallies';
import type { OptionCount } from '../tally';
import {
  type Ballot,
  decideOutcome,
  formatScore,
  type OutcomeRules,
  parseBallot,
  scoreBallots,
  type VotingSystem,
} from './index';

const rules = (over: Partial<OutcomeRules> = {}): OutcomeRules => ({
  eligibleVoters: 10,
  eligibleWeight: 10n,
  threshold: 50,
  quorum: 20,
  ...over,
});

function score(system: VotingSystem, options: string[], votes: [unknown, bigint | number][]) {
  return scoreBallots(
    system,
    options,
    votes.map(([choice, weight]) => {
      const parsed = parseBallot(system, options, choice);
      if (!parsed.ok) throw new Error(parsed.issue.message);
      return { ballot: parsed.ballot as Ballot, weight: BigInt(weight) };
    }),
  );
}

const view = (o: ReturnType<typeof decideOutcome>) => ({
  scores: Object.fromEntries(o.options.map((x) => [x.option, formatScore(o.unit, x.score)])),
  percents: Object.fromEntries(o.options.map((x) => [x.option, x.percent])),
  decided: formatScore(o.unit, o.decided),
  totalWeight: o.totalWeight.toString(),
  turnout: o.turnoutPercent,
  quorumReached: o.quorumReached,
  winningOption: o.winningOption,
  passing: o.passing,
});

describe('worked examples (docs/governance.md, "Voting systems")', () => {
  it('single-choice: A 3, B 1, C 1 → A with 60 % of 5 → PASSED', () => {
    const o = decideOutcome(
      score(
        'single-choice',
        ['A', 'B', 'C'],
        [
          ['A', 3],
          ['B', 1],
          ['C', 1],
        ],
      ),
      rules(),
    );
    expect(view(o)).toEqual({
      scores: { A: '3', B: '1', C: '1' },
      percents: { A: 60, B: 20, C: 20 },
      decided: '5',
      totalWeight: '5',
      turnout: 50,
      quorumReached: true,
      winningOption: 'A',
      passing: true,
    });
  });

  it('basic: For 3, Against 2, Abstain 1 → PASSED', () => {
    const o = decideOutcome(
      score(
        'basic',
        [],
        (
          [
            ['For', 3],
            ['Against', 2],
            ['Abstain', 1],
          ] as const
        ).flatMap(([c, n]): [string, number][] => Array(n).fill([c, 1])),
      ),
      rules(),
    );
    expect(view(o)).toEqual({
      scores: { For: '3', Against: '2', Abstain: '1' },
      percents: { For: 60, Against: 40, Abstain: 16.67 },
      decided: '5',
      totalWeight: '6',
      turnout: 60,
      quorumReached: true,
      winningOption: 'For',
      passing: true,
    });
  });

  it('approval: 6 voters, one approving none → A approved by 3 of the 5 deciding → PASSED', () => {
    const o = decideOutcome(
      score(
        'approval',
        ['A', 'B', 'C'],
        [
          [['A', 'B'], 1],
          [['A'], 1],
          [['A', 'C'], 1],
          [['B'], 1],
          [['C'], 1],
          [[], 1],
        ],
      ),
      rules(),
    );
    expect(view(o)).toEqual({
      scores: { A: '3', B: '2', C: '2' },
      percents: { A: 60, B: 40, C: 40 },
      decided: '5',
      totalWeight: '6',
      turnout: 60,
      quorumReached: true,
      winningOption: 'A',
      passing: true,
    });
  });

  it('weighted: 4 voters split their vote → A 2, B 1.25, C 0.75 → A has 50 % → PASSED', () => {
    const o = decideOutcome(
      score(
        'weighted',
        ['A', 'B', 'C'],
        [
          [{ A: 1 }, 1],
          [{ A: 1, B: 1 }, 1],
          [{ B: 3, C: 1 }, 1],
          [{ C: 2, A: 2 }, 1],
        ],
      ),
      rules(),
    );
    expect(view(o)).toEqual({
      scores: { A: '2.000000000000000000', B: '1.250000000000000000', C: '0.750000000000000000' },
      percents: { A: 50, B: 31.25, C: 18.75 },
      decided: '4.000000000000000000',
      totalWeight: '4',
      turnout: 40,
      quorumReached: true,
      winningOption: 'A',
      passing: true,
    });
  });

  it('quadratic: one holder of 9 tokens for A, four holders of 1 for B → B 8.32 of 13 → PASSED', () => {
    const o = decideOutcome(
      score(
        'quadratic',
        ['A', 'B'],
        [
          [{ A: 1 }, 9],
          [{ B: 1 }, 1],
          [{ B: 1 }, 1],
          [{ B: 1 }, 1],
          [{ B: 1 }, 1],
        ],
      ),
      rules({ eligibleVoters: 8, eligibleWeight: 20n }),
    );
    expect(view(o)).toEqual({
      scores: { A: '4.680000000000000000', B: '8.320000000000000000' },
      percents: { A: 36, B: 64 },
      decided: '13.000000000000000000',
      totalWeight: '13',
      turnout: 65,
      quorumReached: true,
      winningOption: 'B',
      passing: true,
    });
  });

  it('ranked-choice: A leads round 1, C is eliminated, B wins round 2 with 5 of 9 → PASSED', () => {
    const s = score(
      'ranked-choice',
      ['A', 'B', 'C'],
      [
        ...Array(4).fill([['A', 'C'], 1]),
        ...Array(3).fill([['B', 'C'], 1]),
        ...Array(2).fill([['C', 'B'], 1]),
      ],
    );
    expect(view(decideOutcome(s, rules()))).toEqual({
      scores: { A: '4', B: '5', C: '0' },
      percents: { A: 44.44, B: 55.56, C: 0 },
      decided: '9',
      totalWeight: '9',
      turnout: 90,
      quorumReached: true,
      winningOption: 'B',
      passing: true,
    });
  });
});

describe('how each system maps onto the rule', () => {
  it('approval: a ballot approving none or only Abstain counts toward quorum, not toward the threshold', () => {
    const s = score(
      'approval',
      ['A', 'B', 'Abstain'],
      [
        [['A'], 2],
        [['Abstain'], 3],
        [[], 3],
        [['A', 'Abstain'], 1],
      ],
    );
    expect(s.totalWeight).toBe(9n);
    expect(s.decided).toBe(3n);
    const o = decideOutcome(s, rules({ quorum: 90 }));
    expect(o.quorumReached).toBe(true);
    expect(o.options.map((x) => x.percent)).toEqual([100, 0, 44.44]); // Abstain: 4 of the 9 cast
    expect(o.winningOption).toBe('A');
    expect(o.passing).toBe(true);
  });

  it('approval with For and Against uses the For/Against rule', () => {
    const s = score(
      'approval',
      ['For', 'Against'],
      [
        [['For', 'Against'], 3],
        [['Against'], 1],
      ],
    );
    const o = decideOutcome(s, rules({ quorum: 0 }));
    expect(o.winningOption).toBe('Against');
    expect(o.passing).toBe(false);
  });

  it('weighted: the share given to Abstain is left out of the threshold base', () => {
    const s = score(
      'weighted',
      ['Yes', 'No', 'Abstain'],
      [
        [{ Yes: 1, Abstain: 1 }, 10],
        [{ No: 3, Abstain: 1 }, 4],
      ],
    );
    // Yes 5, No 3, Abstain 5 + 1 = 6; decided 8 of 14 cast
    expect(s.scores.map((x) => formatScore('fixed18', x))).toEqual([
      '5.000000000000000000',
      '3.000000000000000000',
      '6.000000000000000000',
    ]);
    const o = decideOutcome(s, rules({ eligibleWeight: 20n, threshold: 62.5 }));
    expect(o.decided).toBe(8n * 10n ** 18n);
    expect(o.options.map((x) => x.percent)).toEqual([62.5, 37.5, 42.86]);
    expect(o.passing).toBe(true);
    expect(decideOutcome(s, rules({ eligibleWeight: 20n, threshold: '62.500001' })).passing).toBe(false);
  });

  it('ranked-choice: a final tie has no winner and does not pass', () => {
    const s = score(
      'ranked-choice',
      ['A', 'B', 'C', 'D'],
      [
        [['A'], 3],
        [['B'], 3],
        [['C', 'A'], 2],
        [['D', 'B'], 2],
      ],
    );
    const o = decideOutcome(s, rules());
    expect(o.winningOption).toBeNull();
    expect(o.passing).toBe(false);
  });

  it('ranked-choice: exhausted ballots count toward quorum only', () => {
    const s = score(
      'ranked-choice',
      ['A', 'B', 'C'],
      [
        [['A'], 4],
        [['B'], 3],
        [['C'], 2],
      ],
    );
    // C is eliminated and its ballots exhaust; A has 4 of the 7 still counted
    expect(s.scores).toEqual([4n, 3n, 0n]);
    expect(s.totalWeight).toBe(9n);
    expect(s.decided).toBe(7n);
    const o = decideOutcome(s, rules({ quorum: 90, threshold: 57 }));
    expect(o.quorumReached).toBe(true);
    expect(o.options[0]!.percent).toBe(57.14);
    expect(o.passing).toBe(true);
  });

  it('quorum uses the weight cast, each voter once, in every system', () => {
    for (const system of ['approval', 'weighted', 'quadratic'] as const) {
      const choice = system === 'approval' ? ['A', 'B'] : { A: 1, B: 1 };
      const s = score(system, ['A', 'B'], [[choice, 2]]);
      expect(decideOutcome(s, rules({ quorum: 20 })).quorumReached, system).toBe(true);
      expect(decideOutcome(s, rules({ quorum: '20.000001' })).quorumReached, system).toBe(false);
    }
  });

  it('fractional scores compare exactly: a 10^-18 lead wins', () => {
    const s = {
      ...score('weighted', ['A', 'B'], [[{ A: 1 }, 1]]),
      scores: [5n * 10n ** 17n + 1n, 5n * 10n ** 17n - 1n],
    };
    expect(decideOutcome(s, rules({ quorum: 0 })).winningOption).toBe('A');
    expect(
      decideOutcome({ ...s, scores: [5n * 10n ** 17n, 5n * 10n ** 17n] }, rules()).winningOption,
    ).toBeNull();
  });
});

describe('single-choice and basic: the tally rows and a count of the ballots agree', () => {
  it('on random counts', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 500; k++) {
      const system = k % 2 ? 'basic' : 'single-choice';
      const options =
        system === 'basic' ? ['For', 'Against', 'Abstain'] : ['A', 'B', 'Abstain', 'C'].slice(0, 2 + rnd(3));
      const votes: [string, bigint][] = Array.from({ length: rnd(12) }, () => [
        options[rnd(options.length)]!,
        rnd(3) === 0 ? 10n ** 24n + BigInt(rnd(1000)) : BigInt(1 + rnd(5)),
      ]);
      const counts = new Map<string, OptionCount>();
      for (const [o, w] of votes) {
        const c = counts.get(o) ?? { votes: 0, weight: 0n };
        counts.set(o, { votes: c.votes + 1, weight: c.weight + w });
      }
      const r = rules({
        eligibleWeight: votes.reduce((a, [, w]) => a + w, 0n) + BigInt(rnd(10)),
        threshold: [50, 60, 66.666667, 1][rnd(4)]!,
        quorum: [0, 20, 50, 100][rnd(4)]!,
      });
      const fromRows = decideOutcome(scoresFromTallies(system, options, counts), r);
      const ours = decideOutcome(score(system, options, votes), r);
      expect(ours).toEqual(fromRows);
    }
  });
});
