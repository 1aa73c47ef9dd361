'use client';
import { type NumberFormatOptions, useFormatter, useLocale } from 'next-intl';
import { formatPercent } from '../governance/format';

/**
 * Numbers in the page's language, the one place for them: `n(1234.5)` → "1,234.5" / "1.234,5";
 * `percent(62.5)` (a value in percent, as the API gives them) → "62.5 %" / "62,5 %", the same as weights
 * beside it; `compact(12_300)` → "12K" / "12.300". Bigints (token amounts) format exactly.
 */
export function useNumberFormat() {
  const format = useFormatter();
  const locale = useLocale();
  return {
    n: (value: number | bigint, options?: NumberFormatOptions) => format.number(value, options ?? {}),
    percent: (value: number) => formatPercent(value, locale),
    compact: (value: number) => format.number(value, { notation: 'compact', maximumFractionDigits: 1 }),
  };
}

/** `percent` of useNumberFormat on its own: "62.5 %" / "62,5 %" */
export function usePercent(): (value: number) => string {
  return useNumberFormat().percent;
}
