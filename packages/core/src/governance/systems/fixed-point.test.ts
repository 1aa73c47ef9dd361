import { describe, expect, it } from 'vitest';
import { apportion, commonNumerators, exactDecimal, FIXED_SCALE, formatFixed, isqrt } from './fixed-point';

describe('fixed point', () => {
  it('formats with exactly 18 decimals', () => {
    expect(formatFixed(0n)).toBe('0.000000000000000000');
    expect(formatFixed(1n)).toBe('0.000000000000000001');
    expect(formatFixed(125n * 10n ** 16n)).toBe('1.250000000000000000');
    expect(formatFixed(10n ** 24n * FIXED_SCALE + 7n)).toBe('1000000000000000000000000.000000000000000007');
    expect(formatFixed(-5n * 10n ** 17n)).toBe('-0.500000000000000000');
  });

  it('isqrt is the floor of the square root', () => {
    for (let n = 0n; n < 2000n; n++) {
      const r = isqrt(n);
      expect(r * r <= n && (r + 1n) * (r + 1n) > n, String(n)).toBe(true);
    }
    for (const r of [10n ** 30n, 2n ** 128n - 1n, 3n ** 100n, 10n ** 42n + 12345n]) {
      expect(isqrt(r * r)).toBe(r);
      expect(isqrt(r * r - 1n)).toBe(r - 1n);
      expect(isqrt(r * r + 2n * r)).toBe(r);
    }
    expect(() => isqrt(-1n)).toThrow(RangeError);
  });

  it('apportion splits exactly, largest remainders first, earlier index on ties', () => {
    expect(apportion(10n, [1n, 1n, 1n])).toEqual([4n, 3n, 3n]);
    expect(apportion(100n, [1n, 2n, 3n])).toEqual([17n, 33n, 50n]);
    expect(apportion(7n, [0n, 0n])).toEqual([0n, 0n]);
    expect(apportion(7n, [0n, 5n])).toEqual([0n, 7n]);
    expect(apportion(2n, [1n, 1n, 1n])).toEqual([1n, 1n, 0n]);
    const parts = apportion(10n ** 42n + 1n, [3n, 7n, 11n, 13n]);
    expect(parts.reduce((a, b) => a + b, 0n)).toBe(10n ** 42n + 1n);
  });

  it('reads a number as the exact decimal it is written as', () => {
    expect(exactDecimal(0.1)).toEqual({ num: 1n, exp: 1 });
    expect(exactDecimal(1e-7)).toEqual({ num: 1n, exp: 7 });
    expect(exactDecimal(1.5e21)).toEqual({ num: 15n * 10n ** 20n, exp: 0 });
    expect(exactDecimal(12345.6789)).toEqual({ num: 123456789n, exp: 4 });
    expect(exactDecimal(0)).toEqual({ num: 0n, exp: 0 });
    expect(() => exactDecimal(-1)).toThrow(RangeError);
    expect(commonNumerators([0.1, 0.3, 2])).toEqual([1n, 3n, 20n]);
    expect(commonNumerators([1e-7, 1])).toEqual([1n, 10000000n]);
  });
});
