import { describe, expect, it } from 'vitest';
import { type Round, roundSteps } from './rounds';

const score = (option: string, weight: number, votes = weight) => ({ option, votes, weight: String(weight) });

describe('roundSteps', () => {
  it('shows the options in the race, ranks by score and gives shares of the weight still counted', () => {
    // docs/governance.md: 4 × [A, C], 3 × [B, C], 2 × [C, B]
    const rounds: Round[] = [
      {
        round: 1,
        scores: [score('A', 4), score('B', 3), score('C', 2), score('D', 0)],
        continuing: ['A', 'B', 'C'], // D is on no ballot: never in the race
        remainingWeight: '9',
        eliminated: 'C',
      },
      {
        round: 2,
        scores: [score('A', 4), score('B', 5), score('C', 0), score('D', 0)],
        continuing: ['A', 'B'],
        remainingWeight: '9',
        eliminated: null,
      },
    ];
    const steps = roundSteps(rounds);
    expect(steps.map((s) => s.scores.map((o) => o.option))).toEqual([
      ['A', 'B', 'C'],
      ['B', 'A'],
    ]);
    expect(steps[1]?.scores.map((o) => Number(o.share.toFixed(2)))).toEqual([55.56, 44.44]);
    expect(steps[0]?.eliminated).toBe('C');
  });

  it('gives 0 % when no weight is counted', () => {
    const [only] = roundSteps([
      {
        round: 1,
        scores: [score('A', 0), score('B', 0)],
        continuing: ['A', 'B'],
        remainingWeight: '0',
        eliminated: null,
      },
    ]);
    expect(only?.scores.map((o) => o.share)).toEqual([0, 0]);
  });
});
