/** one bar of the registrations chart */
export interface DayCount {
  /** YYYY-MM-DD (UTC) */
  day: string;
  count: number;
}

const DAY = 86_400_000;
const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Counts per UTC day for the `days` days ending with `now`'s day, oldest first, zeros included. */
export function countByDay(createdAt: string[], days: number, now: Date): DayCount[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const buckets = new Map<string, number>();
  for (let i = days - 1; i >= 0; i--) buckets.set(utcDay(end - i * DAY), 0);
  for (const iso of createdAt) {
    const day = utcDay(Date.parse(iso));
    const n = buckets.get(day);
    if (n !== undefined) buckets.set(day, n + 1);
  }
  return [...buckets].map(([day, count]) => ({ day, count }));
}

/** the first instant of the window, to know when paging through newest-first users may stop */
export const windowStart = (days: number, now: Date) =>
  Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY;
