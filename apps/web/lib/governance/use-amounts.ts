'use client';
import { useLocale } from 'next-intl';
import { formatScore, formatWeight } from './format';
import { formatTokenAmount, formatTokenWeight, type TokenRef } from './token';

/** Weights, scores and token amounts in the page's language (German: 1.234.567,5). */
export function useAmounts() {
  const locale = useLocale();
  return {
    weight: (w: string) => formatWeight(w, locale),
    score: (s: string) => formatScore(s, 4, locale),
    token: (baseUnits: string, decimals: number, symbol?: string) =>
      formatTokenAmount(baseUnits, decimals, symbol, 4, locale),
    tokenWeight: (w: string, token: Pick<TokenRef, 'decimals' | 'symbol'> | null) =>
      formatTokenWeight(w, token, locale),
  };
}
