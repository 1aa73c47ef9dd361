import { describe, expect, it } from 'vitest';
import { FIXED_SCALE } from './fixed-point';
import {
  type Accumulators,
  addContribution,
  type Ballot,
  contribution,
  emptyAccumulators,
  finalize,
  type IncrementalBallot,
  type IncrementalSystem,
  parseBallot,
  scoreBallots,
  tallyRankedChoice,
} from './index';

/** a small seeded generator (mulberry32), so every run checks the same cases */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const shuffle = <T>(xs: readonly T[]) => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };
  /** weights from 1 to beyond 2^64 */
  const weight = () => {
    const r = int(4);
    if (r === 0) return BigInt(1 + int(5));
    if (r === 1) return BigInt(1 + int(1_000_000_000));
    if (r === 2) return 10n ** 24n + BigInt(int(1_000_000));
    return BigInt(1 + int(1_000_000)) * 10n ** 18n + BigInt(int(1_000_000_000));
  };
  const POINTS = [0, 1, 2, 3, 0.5, 0.1, 0.3, 1 / 3, 7.25, 1e-7, 1e6, 12345.6789];
  const choice = (system: IncrementalSystem | 'ranked-choice', options: string[]): unknown => {
    switch (system) {
      case 'single-choice':
      case 'basic':
        return options[int(options.length)];
      case 'approval':
        return shuffle(options).slice(0, int(options.length + 1));
      case 'ranked-choice':
        return shuffle(options).slice(0, 1 + int(options.length));
      default: {
        const points: Record<string, number> = {};
        for (const o of shuffle(options).slice(0, 1 + int(options.length)))
          points[o] = POINTS[int(POINTS.length)]!;
        if (!Object.values(points).some((p) => p > 0)) points[options[0]!] = 1 + int(9);
        return points;
      }
    }
  };
  return { int, shuffle, weight, choice };
}

const OPTIONS = ['Alpha', 'Beta', 'Gamma', 'Abstain', 'Delta'];
const INCREMENTAL: IncrementalSystem[] = ['single-choice', 'basic', 'approval', 'weighted', 'quadratic'];
const optionsOf = (s: string) => (s === 'basic' ? ['For', 'Against', 'Abstain'] : OPTIONS);

function ballot(system: IncrementalSystem | 'ranked-choice', options: string[], choice: unknown): Ballot {
  const parsed = parseBallot(system, options, choice);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return parsed.ballot;
}

function sum(items: { ballot: Ballot; weight: bigint }[]): Accumulators {
  let acc = emptyAccumulators();
  for (const { ballot: b, weight } of items)
    acc = addContribution(acc, contribution(b as IncrementalBallot, weight));
  return acc;
}

describe.each(INCREMENTAL)('%s: running sums', (system) => {
  const options = optionsOf(system);

  it('give the same scores in any order, and after replacing votes', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const g = generator(seed * 7919 + system.length);
      const items = Array.from({ length: 1 + g.int(25) }, () => ({
        ballot: ballot(system, options, g.choice(system, options)),
        weight: g.weight(),
      }));
      const reference = sum(items);
      const scores = finalize(system, options, reference.options, reference.totals);
      for (let k = 0; k < 5; k++) {
        const acc = sum(g.shuffle(items));
        expect(acc).toEqual(reference);
        expect(finalize(system, options, acc.options, acc.totals)).toEqual(scores);
      }
      // each voter first voted something else, then replaced it (old contribution out, new in)
      let acc = emptyAccumulators();
      for (const item of g.shuffle(items)) {
        const first = contribution(
          ballot(system, options, g.choice(system, options)) as IncrementalBallot,
          item.weight,
        );
        acc = addContribution(acc, first);
        acc = addContribution(acc, first, -1);
        acc = addContribution(acc, contribution(item.ballot as IncrementalBallot, item.weight));
      }
      expect(acc).toEqual(reference);
      expect(finalize(system, options, acc.options, acc.totals)).toEqual(scores);
      // scoring from scratch agrees
      expect(scoreBallots(system, options, items)).toEqual(scores);
    }
  });

  it('counts each voter once in the totals', () => {
    const g = generator(99 + system.length);
    const items = Array.from({ length: 40 }, () => ({
      ballot: ballot(system, options, g.choice(system, options)),
      weight: g.weight(),
    }));
    const s = scoreBallots(system, options, items);
    expect(s.totalVotes).toBe(items.length);
    expect(s.totalWeight).toBe(items.reduce((a, i) => a + i.weight, 0n));
  });
});

describe('weighted', () => {
  it('every ballot adds exactly its weight, split within one 10^-18 unit of its exact shares', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const g = generator(seed);
      const b = ballot('weighted', OPTIONS, g.choice('weighted', OPTIONS));
      const w = g.weight();
      const c = contribution(b as IncrementalBallot, w);
      const amounts = [...c.options.values()].map((a) => a.amount);
      expect(amounts.reduce((x, y) => x + y, 0n)).toBe(w * FIXED_SCALE);
      // exact share = w × 10^18 × p / Σp; for points written with ≤ 4 decimals, scale by 10^4 exactly
      const points = Object.entries((b as Extract<Ballot, { system: 'weighted' }>).points);
      const exactable = points.every(([, p]) => Number.isInteger(p * 10_000) && p * 10_000 < 2 ** 53);
      if (!exactable) continue;
      const ints = points.map(([o, p]) => [o, BigInt(Math.round(p * 10_000))] as const);
      const total = ints.reduce((x, [, n]) => x + n, 0n);
      for (const [o, n] of ints) {
        const lower = (w * FIXED_SCALE * n) / total;
        const got = c.options.get(o)?.amount ?? 0n;
        expect(got === lower || got === lower + 1n, `${o}: ${got} vs ${lower}`).toBe(true);
      }
    }
  });

  it('scores add up exactly to the weight cast (the bound is 0 units of 10^-18)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const g = generator(seed * 31);
      const items = Array.from({ length: 1 + g.int(30) }, () => ({
        ballot: ballot('weighted', OPTIONS, g.choice('weighted', OPTIONS)),
        weight: g.weight(),
      }));
      const s = scoreBallots('weighted', OPTIONS, items);
      expect(s.scores.reduce((a, b) => a + b, 0n)).toBe(s.totalWeight * FIXED_SCALE);
    }
  });
});

describe('quadratic', () => {
  it('scores add up exactly to the weight cast', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const g = generator(seed * 37);
      const items = Array.from({ length: 1 + g.int(30) }, () => ({
        ballot: ballot('quadratic', OPTIONS, g.choice('quadratic', OPTIONS)),
        weight: g.weight(),
      }));
      const s = scoreBallots('quadratic', OPTIONS, items);
      expect(s.scores.reduce((a, b) => a + b, 0n)).toBe(s.totalWeight * FIXED_SCALE);
    }
  });

  it('one voter spreading over two options equally scores them equally, two voters for one option count (√w + √w)²', () => {
    const split = scoreBallots(
      'quadratic',
      ['A', 'B'],
      [{ ballot: ballot('quadratic', ['A', 'B'], { A: 1, B: 1 }), weight: 10n ** 24n }],
    );
    expect(split.scores).toEqual([5n * 10n ** 41n, 5n * 10n ** 41n]);
    // A: two voters of 1 → (1 + 1)² = 4; B: one voter of 4 → (√4)² = 4: equal scores of (1 + 1 + 4) / 2
    const s = scoreBallots(
      'quadratic',
      ['A', 'B'],
      [
        { ballot: ballot('quadratic', ['A', 'B'], { A: 1 }), weight: 1n },
        { ballot: ballot('quadratic', ['A', 'B'], { A: 5 }), weight: 1n },
        { ballot: ballot('quadratic', ['A', 'B'], { B: 0.25 }), weight: 4n },
      ],
    );
    expect(s.scores).toEqual([3n * FIXED_SCALE, 3n * FIXED_SCALE]);
  });
});

describe('ranked-choice', () => {
  it('every round sums to the weight still counted, which never grows; eliminated options stay out', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const g = generator(seed * 101);
      const options = OPTIONS.slice(0, 2 + g.int(4));
      const ballots = Array.from({ length: g.int(30) }, () => ({
        weight: g.weight(),
        ranking: (
          ballot('ranked-choice', options, g.choice('ranked-choice', options)) as Extract<
            Ballot,
            { system: 'ranked-choice' }
          >
        ).ranking,
      }));
      const r = tallyRankedChoice(options, ballots);
      const out = new Set<string>();
      let previous = r.totalWeight;
      r.rounds.forEach((round, i) => {
        expect(round.scores.reduce((a, b) => a + b, 0n)).toBe(round.remainingWeight);
        // the weight of the ballots that still rank an option in the race
        const live = ballots
          .filter((b) => b.ranking.some((o) => !out.has(o)))
          .reduce((a, b) => a + b.weight, 0n);
        expect(round.remainingWeight).toBe(live);
        expect(round.remainingWeight <= previous).toBe(true);
        previous = round.remainingWeight;
        for (const o of round.continuing) expect(out.has(o)).toBe(false);
        options.forEach((o, j) => {
          if (!round.continuing.includes(o)) expect(round.scores[j]).toBe(0n);
        });
        const last = i === r.rounds.length - 1;
        expect(round.eliminated === null).toBe(last);
        if (round.eliminated) {
          // the least weight in the race, the earliest option on a tie
          const inRace = round.continuing.map((o) => round.scores[options.indexOf(o)]!);
          const min = [...inRace].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];
          const first = round.continuing.find((o) => round.scores[options.indexOf(o)] === min);
          expect(round.eliminated).toBe(first);
          out.add(round.eliminated);
        } else {
          const top = [...round.scores].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))[0] ?? 0n;
          expect(top * 2n > round.remainingWeight || round.continuing.length < 3).toBe(true);
        }
      });
      expect(r.scores).toEqual(r.rounds.at(-1)!.scores);
      expect(r.totalWeight).toBe(ballots.reduce((a, b) => a + b.weight, 0n));
    }
  });

  it('no ballots: one empty round', () => {
    const r = tallyRankedChoice(['A', 'B'], []);
    expect(r.rounds).toEqual([
      { round: 1, continuing: [], scores: [0n, 0n], votes: [0, 0], remainingWeight: 0n, eliminated: null },
    ]);
    expect(r.scores).toEqual([0n, 0n]);
  });
});

describe('large weights stay exact', () => {
  const E24 = 10n ** 24n;

  it('single-choice and basic', () => {
    const s = scoreBallots(
      'basic',
      [],
      [
        { ballot: ballot('basic', [], 'For'), weight: E24 + 1n },
        { ballot: ballot('basic', [], 'For'), weight: E24 * 3n + 7n },
        { ballot: ballot('basic', [], 'Against'), weight: 2n ** 200n },
      ],
    );
    expect(s.scores).toEqual([E24 * 4n + 8n, 2n ** 200n, 0n]);
    expect(s.totalWeight).toBe(E24 * 4n + 8n + 2n ** 200n);
  });

  it('approval', () => {
    const s = scoreBallots(
      'approval',
      ['A', 'B', 'C'],
      [
        { ballot: ballot('approval', ['A', 'B', 'C'], ['A', 'B']), weight: E24 + 1n },
        { ballot: ballot('approval', ['A', 'B', 'C'], ['B', 'C']), weight: E24 * 5n + 3n },
        { ballot: ballot('approval', ['A', 'B', 'C'], []), weight: E24 },
      ],
    );
    expect(s.scores).toEqual([E24 + 1n, E24 * 6n + 4n, E24 * 5n + 3n]);
    expect(s.totalWeight).toBe(E24 * 7n + 4n);
    expect(s.decided).toBe(E24 * 6n + 4n);
  });

  it('ranked-choice', () => {
    const r = tallyRankedChoice(
      ['A', 'B', 'C'],
      [
        { weight: E24 * 4n + 1n, ranking: ['A'] },
        { weight: E24 * 3n, ranking: ['B', 'A'] },
        { weight: E24 * 3n + 1n, ranking: ['C', 'A'] },
      ],
    );
    // no majority of 10^25 + 2 in round 1; B is eliminated; A then has 7·10^24 + 1
    expect(r.rounds.map((x) => x.eliminated)).toEqual(['B', null]);
    expect(r.scores).toEqual([E24 * 7n + 1n, 0n, E24 * 3n + 1n]);
  });

  it('weighted: one third of 10^24 + 1 to each of three options, exact to 10^-18', () => {
    const s = scoreBallots(
      'weighted',
      ['A', 'B', 'C'],
      [{ ballot: ballot('weighted', ['A', 'B', 'C'], { A: 1, B: 1, C: 1 }), weight: E24 + 1n }],
    );
    // (10^24 + 1) × 10^18 / 3 = 333…333.666…666⅔ units: the largest remainders round A up first
    const third = ((E24 + 1n) * FIXED_SCALE) / 3n;
    expect(s.scores).toEqual([third + 1n, third + 1n, third]);
  });
});
