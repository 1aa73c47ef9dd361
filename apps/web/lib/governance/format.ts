/** Display helpers: exact decimal-string weights, percentages, durations and addresses. */

/** Groups the digits of an exact integer string (uint256 does not fit in a JS number). */
export function formatWeight(weight: string): string {
  return weight.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export const formatPercent = (p: number) => `${Number(p.toFixed(2))} %`;

export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** 0:04:05 style, days first when long; "0s" when over. */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return '0s';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m ${sec}s`;
  if (m > 0) return `${m}m ${sec}s`;
  return `${sec}s`;
}

export function formatHours(hours: number): string {
  if (hours === 0) return 'none';
  if (hours < 1) return `${Math.round(hours * 3600)} seconds`;
  return `${Number(hours.toFixed(2))} hour${hours === 1 ? '' : 's'}`;
}

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A ballot in words: the option (single-choice, basic), the approved or ranked options joined, or the
 * points per option; null (hidden until the end) stays null.
 */
export function formatBallot(choice: string | string[] | Record<string, number> | null): string | null {
  if (choice === null || typeof choice === 'string') return choice;
  if (Array.isArray(choice)) return choice.length ? choice.join(', ') : 'none approved';
  return Object.entries(choice)
    .map(([option, points]) => `${option}: ${points}`)
    .join(', ');
}
