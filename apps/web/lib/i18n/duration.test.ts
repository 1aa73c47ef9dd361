import { describe, expect, it } from 'vitest';
import { durationParts, tickInterval } from './duration';

const text = (ms: number) =>
  durationParts(ms)
    .map((p) => `${p.value} ${p.unit}`)
    .join(' ');

describe('relative durations', () => {
  it('keeps the two largest units, rounded down', () => {
    expect(text((3 * 24 + 13) * 3_600_000 + 59 * 60_000)).toBe('3 d 13 h');
    expect(text(2 * 3_600_000 + 5 * 60_000 + 30_000)).toBe('2 h 5 min');
    expect(text(4 * 60_000 + 10_999)).toBe('4 min 10 s');
    expect(text(45_400)).toBe('45 s');
    expect(text(400)).toBe('0 s');
  });

  it('drops a trailing zero unit and ignores the sign', () => {
    expect(text(-3 * 86_400_000)).toBe('3 d');
    expect(text(2 * 3_600_000 + 20_000)).toBe('2 h');
    expect(text(-(60_000 + 1_000))).toBe('1 min 1 s');
  });

  it('ticks every second under an hour, every half minute beyond', () => {
    expect(tickInterval(59 * 60_000)).toBe(1_000);
    expect(tickInterval(-2 * 3_600_000)).toBe(30_000);
  });
});
