'use client';
import { useTranslations } from 'next-intl';
import { useNow } from '../../lib/governance/use-now';
import { DateTime } from '../ui/date-time';

interface Step {
  key: 'created' | 'start' | 'end';
  label: string;
  at: string;
}

/**
 * Created → Start → End as a vertical stepper: each step's absolute time with its zone and, for a step
 * still ahead, a live countdown ("in 3 d 13 h"). A step in the past is filled in.
 */
export function ProposalTimeline({
  createdAt,
  startTime,
  endTime,
  testId = 'timeline',
  preview = false,
}: {
  createdAt: string;
  startTime: string;
  endTime: string;
  testId?: string;
  /** the new-proposal form's preview: "Submitted" is now */
  preview?: boolean;
}) {
  const now = useNow();
  const t = useTranslations('governance.timeline');
  const steps: Step[] = [
    { key: 'created', label: preview ? t('submitted') : t('created'), at: createdAt },
    { key: 'start', label: t('start'), at: startTime },
    { key: 'end', label: t('end'), at: endTime },
  ];
  return (
    <ol className="flex flex-col" data-testid={testId}>
      {steps.map((s, i) => {
        const at = Date.parse(s.at);
        const done = now !== 0 && at <= now;
        return (
          <li
            key={s.key}
            className="relative flex gap-3 pb-4 last:pb-0"
            data-testid={`timeline-${s.key}`}
            data-done={done}
          >
            {i < steps.length - 1 && (
              <span aria-hidden="true" className="absolute top-4 left-[7px] h-full w-0.5 bg-border" />
            )}
            <span
              aria-hidden="true"
              className={`relative mt-1 size-4 shrink-0 rounded-full border-2 ${
                done ? 'border-primary bg-primary' : 'border-muted-foreground bg-background'
              }`}
            />
            <div className="flex min-w-0 flex-col text-sm">
              <span className="font-medium">
                {s.label}
                <span className="sr-only">{done ? ` ${t('done')}` : ` ${t('ahead')}`}</span>
              </span>
              <DateTime value={s.at} relative={!done} className="text-muted-foreground" />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
