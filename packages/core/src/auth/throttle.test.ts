import { describe, expect, it } from 'vitest';
import { loginBackoffMs } from './throttle';

describe('loginBackoffMs', () => {
  const settings = { freeFailures: 5, maxBackoffMs: 15 * 60_000 };
  it('is free for the first failures, then doubles from one second', () => {
    expect([1, 5, 6, 7, 8, 10].map((n) => loginBackoffMs(n, settings))).toEqual([
      0, 0, 1_000, 2_000, 4_000, 16_000,
    ]);
  });
  it('is capped, even for absurd counts', () => {
    expect(loginBackoffMs(16, settings)).toBe(15 * 60_000);
    expect(loginBackoffMs(10_000, settings)).toBe(15 * 60_000);
  });
});
