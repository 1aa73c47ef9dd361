'use client';
import { type NumberFormatOptions, useFormatter } from 'next-intl';

/**
 * Numbers in the page's language: `n(1234.5)` → "1,234.5" / "1.234,5"; `percent(0.425)` → "42.5%" /
 * "42,5 %"; `compact(12_300)` → "12K" / "12.300". Bigints (token amounts) format exactly.
 */
export function useNumberFormat() {
  const format = useFormatter();
  return {
    n: (value: number | bigint, options?: NumberFormatOptions) => format.number(value, options ?? {}),
    percent: (fraction: number, maximumFractionDigits = 1) =>
      format.number(fraction, { style: 'percent', maximumFractionDigits }),
    compact: (value: number) => format.number(value, { notation: 'compact', maximumFractionDigits: 1 }),
  };
}
