import { byScore } from './format';
import type { Results } from './types';

export type Round = NonNullable<Results['rounds']>[number];

/**
 * Ranked-choice rounds as shown: each round's options still in the race (those eliminated in an earlier
 * round left out), highest score first, each with its share of the weight still counted in that round
 * (ranked-choice scores are whole weight units).
 */
export function roundSteps(rounds: readonly Round[]) {
  const out = new Set<string>();
  return rounds.map((r) => {
    const total = Number(r.remainingWeight);
    const scores = byScore(r.scores.filter((s) => !out.has(s.option))).map((s) => ({
      ...s,
      share: total > 0 ? (Number(s.weight) / total) * 100 : 0,
    }));
    if (r.eliminated) out.add(r.eliminated);
    return { ...r, scores };
  });
}
