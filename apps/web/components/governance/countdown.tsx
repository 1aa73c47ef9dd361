'use client';
import { useTranslations } from 'next-intl';
import type { ProposalStatus } from '../../lib/governance/types';
import { useNow } from '../../lib/governance/use-now';
import { useFormatDateTime, useFormatDuration } from '../ui/date-time';

/**
 * "Ends in 3 min 12 s" / "Starts in 1 d 2 h" / "Ended Nov 24, 2026, 19:30 UTC" in the page's language,
 * ticking every second: the durations and dates of every other relative time (components/ui/date-time.tsx).
 */
export function Countdown({
  status,
  startTime,
  endTime,
  testId,
}: {
  status: ProposalStatus;
  startTime: string;
  endTime: string;
  testId?: string;
}) {
  const now = useNow();
  const formatDateTime = useFormatDateTime();
  const t = useTranslations('governance.countdown');
  const formatDuration = useFormatDuration();
  const start = Date.parse(startTime);
  const end = Date.parse(endTime);
  let text: string;
  if (status === 'PASSED' || status === 'REJECTED') text = t('ended', { date: formatDateTime(endTime) });
  // voting stopped early: no countdown to an end that will not come
  else if (status === 'CANCELLED') text = t('cancelled');
  else if (!now)
    text =
      status === 'PENDING'
        ? t('starts', { date: formatDateTime(startTime) })
        : t('ends', { date: formatDateTime(endTime) });
  else if (status === 'PENDING')
    text = now < start ? t('startsIn', { duration: formatDuration(start - now) }) : t('opening');
  else text = now < end ? t('endsIn', { duration: formatDuration(end - now) }) : t('closing');
  return (
    <time className="tabular-nums" dateTime={status === 'PENDING' ? startTime : endTime} data-testid={testId}>
      {text}
    </time>
  );
}
