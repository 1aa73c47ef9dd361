'use client';
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { cn } from '../../lib/cn';
import { durationParts, tickInterval } from '../../lib/i18n/duration';
import { useMounted } from '../../lib/use-mounted';

type DateInput = Date | string | number;
const toDate = (d: DateInput) => (d instanceof Date ? d : new Date(d));

/** The one date-and-time format of the app: "Nov 24, 2026, 19:30 UTC" / "24. Nov. 2026, 19:30 UTC". */
export const DATE_TIME_FORMAT = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
} as const;

/** The same format as a string, for titles, toasts and exports. */
export function useFormatDateTime() {
  const format = useFormatter();
  return (value: DateInput) => format.dateTime(toDate(value), DATE_TIME_FORMAT);
}

/** A span as the app's one duration format: "3 d 13 h", "4 min 10 s" / "3 T 13 Std." (countdowns too). */
export function useFormatDuration() {
  const t = useTranslations('common.time');
  const format = useFormatter();
  return (ms: number) =>
    durationParts(ms)
      .map((p) => t(`unit.${p.unit}`, { value: format.number(p.value) }))
      .join(' ');
}

/** "in 3 d 13 h" / "2 h ago" / "in 45 s", in the page's language. */
export function useFormatRelative() {
  const t = useTranslations('common.time');
  const formatDuration = useFormatDuration();
  return (target: Date, now: number) => {
    const diff = target.getTime() - now;
    const duration = formatDuration(diff);
    return diff >= 0 ? t('in', { duration }) : t('ago', { duration });
  };
}

/** Date.now(), redrawn as often as a relative time to `target` needs (null until mounted: no mismatch). */
export function useTickingNow(target: Date | null): number | null {
  const mounted = useMounted();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!mounted || !target) return;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      timer = setTimeout(tick, tickInterval(target.getTime() - current));
    };
    tick();
    return () => clearTimeout(timer);
  }, [mounted, target?.getTime()]);
  return mounted ? now : null;
}

/**
 * A point in time, everywhere in the same format with its time zone, in a <time> element. `relative`
 * adds a live part after it ("· in 3 d 13 h", "· 2 h ago"); `relativeOnly` shows just that, with the
 * absolute time as its title.
 */
export function DateTime({
  value,
  relative = false,
  relativeOnly = false,
  className,
  testId,
}: {
  value: DateInput;
  relative?: boolean;
  relativeOnly?: boolean;
  className?: string;
  testId?: string;
}) {
  const date = toDate(value);
  const valid = !Number.isNaN(date.getTime());
  const absolute = useFormatDateTime();
  const rel = useFormatRelative();
  const now = useTickingNow(valid && (relative || relativeOnly) ? date : null);
  if (!valid) return <span className={className}>—</span>;
  const text = absolute(date);
  const relText = now !== null ? rel(date, now) : null;
  return (
    <time
      dateTime={date.toISOString()}
      title={relativeOnly ? text : undefined}
      className={cn('whitespace-normal', className)}
      data-testid={testId}
      suppressHydrationWarning
    >
      {relativeOnly ? (relText ?? text) : text}
      {relative && !relativeOnly && relText && <span className="text-muted-foreground"> · {relText}</span>}
    </time>
  );
}
