'use client';
import { formatRemaining } from '../../lib/governance/format';
import type { ProposalStatus } from '../../lib/governance/types';
import { useNow } from '../../lib/governance/use-now';
import { useFormatDateTime } from '../ui/date-time';

/** "Ends in 3m 12s" / "Starts in …" / "Ended …", ticking every second. */
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
  const start = Date.parse(startTime);
  const end = Date.parse(endTime);
  let text: string;
  if (status === 'PASSED' || status === 'REJECTED') text = `Ended ${formatDateTime(endTime)}`;
  else if (!now)
    text = status === 'PENDING' ? `Starts ${formatDateTime(startTime)}` : `Ends ${formatDateTime(endTime)}`;
  else if (status === 'PENDING')
    text = now < start ? `Starts in ${formatRemaining(start - now)}` : 'Opening…';
  else text = now < end ? `Ends in ${formatRemaining(end - now)}` : 'Closing…';
  return (
    <time className="countdown" dateTime={status === 'PENDING' ? startTime : endTime} data-testid={testId}>
      {text}
    </time>
  );
}
