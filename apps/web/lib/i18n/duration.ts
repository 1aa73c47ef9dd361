export type DurationUnit = 'd' | 'h' | 'min' | 's';
export interface DurationPart {
  unit: DurationUnit;
  value: number;
}

const UNITS: [DurationUnit, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

/**
 * A span as its two largest units, rounded down: 3 d 13 h, 2 h 5 min, 4 min 10 s, 45 s. Spans of a day or
 * more stop at hours and spans of an hour or more at minutes, so the text stays short and ticks slowly.
 */
export function durationParts(ms: number): DurationPart[] {
  let rest = Math.floor(Math.abs(ms) / 1000) * 1000;
  const parts: DurationPart[] = [];
  for (const [unit, size] of UNITS) {
    const value = Math.floor(rest / size);
    rest -= value * size;
    if (value > 0 || parts.length > 0) parts.push({ unit, value });
    if (parts.length === 2) break;
  }
  if (parts.length === 0) return [{ unit: 's', value: 0 }];
  // "3 d 0 h" reads better as "3 d"
  return parts[1]?.value === 0 ? parts.slice(0, 1) : parts;
}

/** How often a relative time needs redrawing: every second under an hour, else every half minute. */
export function tickInterval(ms: number): number {
  return Math.abs(ms) < 3_600_000 ? 1_000 : 30_000;
}
