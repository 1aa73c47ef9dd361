/** Display helpers: exact decimal-string weights, percentages, periods and addresses. */

// the traits alone, not the package's index: the zod schemas stay out of pages that only format
import { VOTING_SYSTEM_TRAITS, type VotingSystemName } from '@plenum/validators/voting-systems';

/** Groups the digits of an exact integer string (uint256 does not fit in a JS number). */
export function formatWeight(weight: string, locale = 'en'): string {
  if (locale === 'en' || !/^\d+$/.test(weight)) return weight.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // Intl formats a bigint exactly, with the locale's group separator
  return new Intl.NumberFormat(locale).format(BigInt(weight));
}

/** at most two decimals, no trailing zeros, a space before the sign: "66.67 %", in German "66,67 %" */
export const formatPercent = (p: number, locale = 'en') =>
  `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }).format(p)} %`;

export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** A period given in hours, in words of the locale ("1.5 hours", "1,800 seconds"); `none` for zero. */
export function formatHours(hours: number, locale = 'en', none = 'none'): string {
  if (hours === 0) return none;
  const unit = (u: string, v: number) =>
    new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: u,
      unitDisplay: 'long',
      maximumFractionDigits: 2,
    }).format(v);
  return hours < 1 ? unit('second', Math.round(hours * 3600)) : unit('hour', hours);
}

/**
 * A ballot in words: the option (single-choice, basic); the approved options joined ("none approved" for
 * an empty approval); a ranking numbered ("1. A, 2. B"); points per option ("A 2 · B 1"). Null (hidden
 * until the end) stays null. Without the system an array reads as an approval; points follow the
 * proposal's `options` order when given; `none` is the words for an empty approval in the page's language.
 */
export function formatBallot(
  choice: string | string[] | Record<string, number> | null,
  system?: VotingSystemName,
  options?: readonly string[],
  none = 'none approved',
): string | null {
  if (choice === null || typeof choice === 'string') return choice;
  if (Array.isArray(choice)) {
    if (system && VOTING_SYSTEM_TRAITS[system].ballot === 'ranked')
      return choice.map((o, i) => `${i + 1}. ${o}`).join(', ');
    return choice.length ? choice.join(', ') : none;
  }
  // stored objects may come back in any key order: the proposal's order when it is given
  const at = (o: string) => (options?.includes(o) ? options.indexOf(o) : Number.MAX_SAFE_INTEGER);
  return Object.entries(choice)
    .map(([option, points], i) => ({ option, points, i }))
    .sort((a, b) => at(a.option) - at(b.option) || a.i - b.i)
    .map(({ option, points }) => `${option} ${points}`)
    .join(' · ');
}

const SCORE = /^(\d+)(?:\.(\d+))?$/;

/** a score (an integer string, or a decimal string of weighted and quadratic) in 10^-18 units */
export function scoreUnits(score: string): bigint {
  const m = SCORE.exec(score);
  if (!m) return 0n;
  const frac = (m[2] ?? '').slice(0, 18).padEnd(18, '0');
  return BigInt(m[1] ?? '0') * 10n ** 18n + BigInt(frac);
}

/**
 * A score for reading: whole units grouped as formatWeight does; a decimal score (18 places from
 * weighted and quadratic) rounded half up to at most `decimals` places, trailing zeros dropped
 * ("25.000000000000000000" → "25", "4.680000000000000000" → "4.68"); a score above 0 that would round
 * to 0 reads "< 0.0001".
 */
export function formatScore(score: string, decimals = 4, locale = 'en'): string {
  const m = SCORE.exec(score);
  if (!m) return score;
  if (m[2] === undefined) return formatWeight(m[1] ?? '0', locale);
  const scale = 10n ** BigInt(decimals);
  const units = scoreUnits(score);
  const unit = 10n ** 18n / scale;
  const rounded = (units + unit / 2n) / unit; // in 10^-decimals
  const point = decimalSeparator(locale);
  if (rounded === 0n && units > 0n) return `< ${(1 / Number(scale)).toFixed(decimals).replace('.', point)}`;
  const whole = formatWeight((rounded / scale).toString(), locale);
  const frac = (rounded % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac ? `${whole}${point}${frac}` : whole;
}

/** the locale's decimal mark ("." in English, "," in German) */
export function decimalSeparator(locale = 'en'): string {
  if (locale === 'en') return '.';
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/** options by score, highest first; equal scores keep their given (the proposal's) order */
export function byScore<T extends { weight: string }>(options: readonly T[]): T[] {
  return options
    .map((o, i) => ({ o, i, units: scoreUnits(o.weight) }))
    .sort((a, b) => (a.units === b.units ? a.i - b.i : a.units > b.units ? -1 : 1))
    .map(({ o }) => o);
}
