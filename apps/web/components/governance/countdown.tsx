'use client';
import { useLocale, useTranslations } from 'next-intl';
import { formatRemaining } from '../../lib/governance/format';
import type { ProposalStatus } from '../../lib/governance/types';
import { useNow } from '../../lib/governance/use-now';
import { useFormatDateTime } from '../ui/date-time';

/** "Ends in 3m 12s" / "Starts in …" / "Ended …" in the page's language, ticking every second. */
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
  const locale = useLocale();
  const start = Date.parse(startTime);
  const end = Date.parse(endTime);
  let text: string;
  if (status === 'PASSED' || status === 'REJECTED') text = t('ended', { date: formatDateTime(endTime) });
  else if (!now)
    text =
      status === 'PENDING'
        ? t('starts', { date: formatDateTime(startTime) })
        : t('ends', { date: formatDateTime(endTime) });
  else if (status === 'PENDING')
    text = now < start ? t('startsIn', { duration: formatRemaining(start - now, locale) }) : t('opening');
  else text = now < end ? t('endsIn', { duration: formatRemaining(end - now, locale) }) : t('closing');
  return (
    <time className="tabular-nums" dateTime={status === 'PENDING' ? startTime : endTime} data-testid={testId}>
      {text}
    </time>
  );
}
