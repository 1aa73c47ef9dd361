/**
 * The arithmetic of the outcome rule (docs/governance.md, "Outcome"), which decideOutcome
 * (systems/outcome.ts) applies to every system's scores: exact integers throughout. Weights are bigint;
 * the DAO's threshold and quorum (percent, up to 6 decimals) are scaled by 10^6 so that every comparison is
 * an integer comparison. Percentages are rounded to 2 decimals only for display.
 */

import { isAbstain } from '@plenum/validators';

export interface OptionCount {
  votes: number;
  weight: bigint;
}

/** a percent given with up to 6 decimals, times 10^6, exactly */
export function scaledPercent(value: number | string): bigint {
  return BigInt(Math.round(Number(value) * 1_000_000));
}

export { isAbstain };

/** num / den × 100 rounded half-up to 2 decimals; 0 when den is 0 */
export function percentOf(num: bigint, den: bigint): number {
  if (den === 0n) return 0;
  const hundredths = (num * 10_000n * 2n + den) / (2n * den);
  return Number(hundredths) / 100;
}

/** the non-Abstain option with the greatest weight; null with no weight at all or a tie at the top */
export function winningOptionOf(options: string[], weightOf: (o: string) => bigint): string | null {
  let best: string | null = null;
  let bestWeight = 0n;
  let tie = false;
  for (const o of options) {
    if (isAbstain(o)) continue;
    const w = weightOf(o);
    if (w > bestWeight) {
      best = o;
      bestWeight = w;
      tie = false;
    } else if (w === bestWeight && w > 0n) {
      tie = true;
    }
  }
  return tie ? null : best;
}
