/**
 * The outcome rule (docs/governance.md, "Outcome") as pure functions over exact integers. Weights are bigint;
 * the DAO's threshold and quorum (percent, up to 6 decimals) are scaled by 10^6 so that every comparison is
 * an integer comparison. Percentages are rounded to 2 decimals only for display.
 */

export interface OptionCount {
  votes: number;
  weight: bigint;
}

export interface OutcomeInput {
  options: string[];
  /** running totals by option; options without votes may be absent */
  counts: ReadonlyMap<string, OptionCount>;
  eligibleVoters: number;
  eligibleWeight: bigint;
  /** percent 1..100 */
  threshold: number | string;
  /** percent 0..100 */
  quorum: number | string;
}

export interface Outcome {
  options: { option: string; votes: number; weight: bigint; percent: number }[];
  totalVotes: number;
  totalWeight: bigint;
  /** weight of every non-Abstain vote */
  decided: bigint;
  turnoutPercent: number;
  quorumReached: boolean;
  winningOption: string | null;
  passing: boolean;
}

const SCALE = 1_000_000n;

/** a percent given with up to 6 decimals, times 10^6, exactly */
export function scaledPercent(value: number | string): bigint {
  return BigInt(Math.round(Number(value) * 1_000_000));
}

export const isAbstain = (option: string) => option.toLowerCase() === 'abstain';

/** true when the options hold For and Against (ignoring case): the yes/no rule applies */
export function isForAgainst(options: string[]): boolean {
  const lower = options.map((o) => o.toLowerCase());
  return lower.includes('for') && lower.includes('against');
}

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

export function computeOutcome(input: OutcomeInput): Outcome {
  const { options, counts } = input;
  const weightOf = (o: string) => counts.get(o)?.weight ?? 0n;
  let totalVotes = 0;
  let totalWeight = 0n;
  let decided = 0n;
  for (const o of options) {
    const c = counts.get(o);
    if (!c) continue;
    totalVotes += c.votes;
    totalWeight += c.weight;
    if (!isAbstain(o)) decided += c.weight;
  }

  const threshold = scaledPercent(input.threshold);
  const quorum = scaledPercent(input.quorum);
  // totalWeight × 100 ≥ quorum × eligibleWeight, with quorum scaled by 10^6
  const quorumReached = totalWeight * 100n * SCALE >= quorum * input.eligibleWeight;
  const meetsThreshold = (w: bigint) => w * 100n * SCALE >= threshold * decided;
  const winningOption = winningOptionOf(options, weightOf);

  let passing: boolean;
  if (isForAgainst(options)) {
    const forOption = options.find((o) => o.toLowerCase() === 'for')!;
    const againstOption = options.find((o) => o.toLowerCase() === 'against')!;
    const wFor = weightOf(forOption);
    passing = quorumReached && wFor > weightOf(againstOption) && meetsThreshold(wFor);
  } else {
    passing = quorumReached && winningOption !== null && meetsThreshold(weightOf(winningOption));
  }

  return {
    options: options.map((option) => {
      const c = counts.get(option);
      const weight = c?.weight ?? 0n;
      return {
        option,
        votes: c?.votes ?? 0,
        weight,
        percent: isAbstain(option) ? percentOf(weight, totalWeight) : percentOf(weight, decided),
      };
    }),
    totalVotes,
    totalWeight,
    decided,
    turnoutPercent: percentOf(totalWeight, input.eligibleWeight),
    quorumReached,
    winningOption,
    passing,
  };
}
