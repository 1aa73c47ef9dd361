import { byScore } from './format';
import type { Results } from './types';

export type Round = NonNullable<Results['rounds']>[number];

/**
 * Ranked-choice rounds as shown: each round's options in the race (`continuing`: eliminated ones and those
 * no ballot ranks left out), highest score first, each with its share of the weight still counted in that
 * round (ranked-choice scores are whole weight units).
 */
export function roundSteps(rounds: readonly Round[]) {
  return rounds.map((r) => {
    const total = Number(r.remainingWeight);
    const inRace = new Set(r.continuing);
    const scores = byScore(r.scores.filter((s) => inRace.has(s.option))).map((s) => ({
      ...s,
      share: total > 0 ? (Number(s.weight) / total) * 100 : 0,
    }));
    return { ...r, scores };
  });
}
