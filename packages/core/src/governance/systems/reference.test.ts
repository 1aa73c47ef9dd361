import { describe, expect, it } from 'vitest';
import { formatScore, parseBallot, scoreBallots, tallyRankedChoice, type VotingSystem } from './index';

/*
 * Expected scores come from Snapshot's reference implementation, @snapshot-labs/snapshot.js 0.17.5, src/voting:
 * these ballots (our own, not Snapshot's example files) were turned into Snapshot's form (1-based choice
 * indexes; points objects keyed by index) and counted with its classes' getScores() (SingleChoiceVoting for
 * single-choice and basic, ApprovalVoting, WeightedVoting, QuadraticVoting; one strategy, scores = [balance])
 * and, for ranked-choice, with rankedChoice.ts's irv() over the same ballots (every round's sortedByHighest
 * mapped back to the options, the eliminated option = the one missing from the next round). Snapshot's
 * files were run unchanged with tsx, except for exporting irv and inlining getNumberWithOrdinal, the one
 * helper rankedChoice.ts imports. Snapshot counts in doubles: integer systems must match exactly, fractional
 * ones within a relative difference of 1e-9.
 */

type Choice = string | string[] | Record<string, number>;
interface RefCase {
  name: string;
  options: string[];
  votes: [Choice, number][];
  scores: number[];
  rounds?: number[][];
  eliminated?: (string | null)[];
}

const reference: Record<VotingSystem, RefCase[]> = {
  'single-choice': [
    {
      name: 'three options, mixed weights',
      options: ['Red', 'Green', 'Blue'],
      votes: [
        ['Red', 5],
        ['Green', 3],
        ['Red', 2],
        ['Blue', 9],
        ['Green', 1],
      ],
      scores: [7, 4, 9],
    },
  ],
  basic: [
    {
      name: 'For, Against, Abstain',
      options: ['For', 'Against', 'Abstain'],
      votes: [
        ['For', 40],
        ['Against', 25],
        ['Abstain', 10],
        ['For', 7],
        ['Against', 30],
      ],
      scores: [47, 55, 10],
    },
  ],
  approval: [
    {
      name: 'four options, an empty ballot, a full ballot',
      options: ['Alice', 'Bob', 'Carol', 'Dave'],
      votes: [
        [['Alice', 'Bob'], 5],
        [['Bob'], 3],
        [[], 7],
        [['Carol', 'Alice', 'Dave'], 11],
        [['Dave'], 2],
        [['Alice', 'Bob', 'Carol', 'Dave'], 1],
      ],
      scores: [17, 9, 12, 14],
    },
    {
      name: 'token weights',
      options: ['North', 'South', 'East'],
      votes: [
        [['North', 'East'], 1200000],
        [['South'], 950000],
        [['East', 'South'], 300001],
        [[], 42],
      ],
      scores: [1200000, 1250001, 1500001],
    },
  ],
  weighted: [
    {
      name: 'fractions, zeros and a tiny share',
      options: ['A', 'B', 'C'],
      votes: [
        [{ A: 1, B: 1 }, 10],
        [{ A: 0.1, C: 0.3 }, 7],
        [{ B: 3 }, 4],
        [{ A: 2, B: 1, C: 1 }, 1000],
        [{ C: 1e-7, A: 1 }, 13],
        [{ A: 0, B: 2.5 }, 3],
      ],
      scores: [519.7499987000001, 262, 255.25000129999984],
    },
    {
      name: 'thirds and sevenths with large weights',
      options: ['Grants', 'Security', 'Marketing', 'Reserve'],
      votes: [
        [{ Grants: 1, Security: 2, Marketing: 3 }, 999999937],
        [{ Reserve: 7, Grants: 1 }, 123456789],
        [{ Security: 33.3, Marketing: 66.7 }, 500000003],
        [{ Grants: 1 }, 1],
      ],
      scores: [182098755.79166663, 499833313.33233327, 833499970.501, 108024690.37500001],
    },
  ],
  quadratic: [
    {
      name: 'fractions, zeros and a tiny share',
      options: ['A', 'B', 'C'],
      votes: [
        [{ A: 1, B: 1 }, 10],
        [{ A: 0.1, C: 0.3 }, 7],
        [{ B: 3 }, 4],
        [{ A: 2, B: 1, C: 1 }, 1000],
        [{ C: 1e-7, A: 1 }, 13],
        [{ A: 0, B: 2.5 }, 3],
      ],
      scores: [540.0725317930036, 293.8754021588527, 203.05206604814376],
    },
    {
      name: 'many small voters against one large voter',
      options: ['Park', 'Library', 'Road'],
      votes: [
        [{ Road: 1 }, 10000],
        [{ Park: 1 }, 100],
        [{ Park: 1 }, 100],
        [{ Park: 1 }, 100],
        [{ Park: 2, Library: 1 }, 100],
        [{ Library: 1 }, 400],
        [{ Park: 1, Library: 1, Road: 1 }, 900],
      ],
      scores: [1926.223728013695, 1161.935340108086, 8611.84093187822],
    },
  ],
  'ranked-choice': [
    {
      name: 'full rankings, majority after two eliminations',
      options: ['Alice', 'Bob', 'Carol', 'Dave'],
      votes: [
        [['Alice', 'Bob', 'Carol', 'Dave'], 8],
        [['Bob', 'Carol', 'Alice', 'Dave'], 6],
        [['Carol', 'Bob', 'Alice', 'Dave'], 5],
        [['Dave', 'Carol', 'Bob', 'Alice'], 4],
        [['Dave', 'Alice', 'Bob', 'Carol'], 1],
      ],
      scores: [9, 15, 0, 0],
      rounds: [
        [8, 6, 5, 5],
        [8, 11, 0, 5],
        [9, 15, 0, 0],
      ],
      eliminated: ['Carol', 'Dave', null],
    },
    {
      name: 'partial rankings, exhausted ballots, an option never ranked',
      options: ['Alice', 'Bob', 'Carol', 'Dave', 'Eve'],
      votes: [
        [['Alice'], 7],
        [['Bob'], 5],
        [['Carol', 'Bob'], 4],
        [['Dave', 'Carol'], 3],
        [['Dave'], 2],
        [['Carol'], 2],
      ],
      scores: [7, 0, 9, 0, 0],
      rounds: [
        [7, 5, 6, 5, 0],
        [7, 0, 6, 5, 0],
        [7, 0, 9, 0, 0],
      ],
      eliminated: ['Bob', 'Dave', null],
    },
    {
      name: 'ties: the earliest option is eliminated, final tie',
      options: ['A', 'B', 'C', 'D'],
      votes: [
        [['A'], 3],
        [['B'], 3],
        [['C', 'A'], 2],
        [['D', 'B'], 2],
      ],
      scores: [5, 5, 0, 0],
      rounds: [
        [3, 3, 2, 2],
        [5, 3, 0, 2],
        [5, 5, 0, 0],
      ],
      eliminated: ['C', 'D', null],
    },
    {
      name: 'an option with no first preference goes first',
      options: ['W', 'X', 'Y', 'Z'],
      votes: [
        [['W', 'Z'], 4],
        [['X', 'Z'], 4],
        [['Y', 'X'], 1],
      ],
      scores: [4, 5, 0, 0],
      rounds: [
        [4, 4, 1, 0],
        [4, 4, 1, 0],
        [4, 5, 0, 0],
      ],
      eliminated: ['Z', 'Y', null],
    },
    {
      name: 'majority in the first round',
      options: ['Yes', 'No', 'Later'],
      votes: [
        [['Yes', 'Later'], 51],
        [['No'], 30],
        [['Later', 'No'], 19],
      ],
      scores: [51, 30, 19],
      rounds: [[51, 30, 19]],
      eliminated: [null],
    },
  ],
};

function ballotsOf(system: VotingSystem, c: RefCase) {
  return c.votes.map(([choice, weight]) => {
    const parsed = parseBallot(system, c.options, choice);
    if (!parsed.ok) throw new Error(parsed.issue.message);
    return { ballot: parsed.ballot, weight: BigInt(weight) };
  });
}

const relativeDifference = (ours: number, ref: number) =>
  ref === 0 ? Math.abs(ours) : Math.abs(ours - ref) / Math.abs(ref);

describe.each(Object.keys(reference) as VotingSystem[])('%s matches Snapshot', (system) => {
  it.each(reference[system])('$name', (c) => {
    const s = scoreBallots(system, c.options, ballotsOf(system, c));
    expect(s.options).toEqual(c.options);
    expect(s.totalWeight).toBe(c.votes.reduce((a, [, w]) => a + BigInt(w), 0n));
    if (s.unit === 'integer') {
      expect(s.scores).toEqual(c.scores.map(BigInt));
    } else {
      s.scores.forEach((score, i) => {
        const ours = Number(formatScore(s.unit, score));
        expect(relativeDifference(ours, c.scores[i]!), c.options[i]).toBeLessThanOrEqual(1e-9);
      });
    }
    if (system === 'ranked-choice') {
      const r = tallyRankedChoice(
        c.options,
        ballotsOf(system, c).map(({ ballot, weight }) => ({
          weight,
          ranking: ballot.system === 'ranked-choice' ? ballot.ranking : [],
        })),
      );
      expect(r.rounds.map((x) => x.scores)).toEqual(c.rounds!.map((x) => x.map(BigInt)));
      expect(r.rounds.map((x) => x.eliminated)).toEqual(c.eliminated);
    }
  });
});
