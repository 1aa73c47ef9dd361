import { localToIso } from './validate';

/**
 * The new-proposal form's live timeline: submitted now, voting from the chosen start (or at once) for
 * the typed number of hours. Null while the duration is not a number above 0 or the start is no date.
 */
export function previewTimeline(params: {
  now: number;
  /** a datetime-local value in the browser's zone, or '' for "at once" */
  start: string;
  durationHours: string;
}): { createdAt: string; startTime: string; endTime: string } | null {
  const hours = Number(params.durationHours);
  if (params.durationHours.trim() === '' || !Number.isFinite(hours) || hours <= 0) return null;
  const startIso = params.start ? localToIso(params.start) : undefined;
  const start = startIso ? Date.parse(startIso) : params.now;
  if (Number.isNaN(start)) return null;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    createdAt: iso(params.now),
    startTime: iso(Math.max(start, params.now)),
    endTime: iso(Math.max(start, params.now) + hours * 3_600_000),
  };
}
