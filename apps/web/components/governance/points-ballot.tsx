'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useId } from 'react';
import { formatPercent } from '../../lib/governance/format';
import { pointsSplit } from '../../lib/governance/systems';
import { Input } from '../ui/input';

/**
 * A weighted or quadratic ballot: points per option (numbers ≥ 0, fractions allowed); the split of the
 * voter's weight that those points make shows as they type.
 */
export function PointsBallot({
  options,
  points,
  onChange,
  quadratic,
  describedBy,
}: {
  options: readonly string[];
  points: Readonly<Record<string, string>>;
  onChange: (points: Record<string, string>) => void;
  quadratic: boolean;
  describedBy?: string | undefined;
}) {
  const id = useId();
  const t = useTranslations('governance.ballot.points');
  const locale = useLocale();
  const percent = (p: number) => formatPercent(p, locale);
  const split = pointsSplit(options, points);
  const given = split.shares.filter((s) => s.points > 0);
  return (
    <div className="flex flex-col gap-4" data-testid="points-ballot">
      <p className="text-sm text-muted-foreground" id={`${id}-hint`}>
        {t('hint')}
        {quadratic && ` ${t('quadratic')}`}
      </p>
      <ul className="flex flex-col gap-2">
        {split.shares.map(({ option, percent: share }, i) => (
          <li
            key={option}
            className="grid grid-cols-[minmax(0,1fr)_6rem_4.5rem] items-center gap-x-2 gap-y-1"
            data-testid={`points-${option}`}
          >
            <label htmlFor={`${id}-${i}`} className="min-w-0 font-semibold break-words">
              {option}
            </label>
            <Input
              id={`${id}-${i}`}
              // text with a decimal keypad: a number input would hide what was typed when it is not a number
              type="text"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0"
              value={points[option] ?? ''}
              aria-describedby={[`${id}-${i}-share`, describedBy].filter(Boolean).join(' ')}
              onChange={(e) => onChange({ ...points, [option]: e.target.value })}
            />
            <output
              id={`${id}-${i}-share`}
              htmlFor={`${id}-${i}`}
              className="text-right tabular-nums"
              data-testid={`share-${option}`}
              data-percent={share}
            >
              {percent(share)}
            </output>
            <div className="col-span-full h-2 rounded-full bg-muted" aria-hidden="true">
              <div
                className="h-full rounded-full bg-primary/70 transition-[width] duration-300 motion-reduce:transition-none"
                style={{ width: `${share}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
      <p className="text-sm text-muted-foreground" data-testid="points-total" aria-live="polite">
        {split.total > 0
          ? t('split', {
              shares: given
                .map((s) => t('share', { percent: percent(s.percent), option: s.option }))
                .join(', '),
            })
          : t('none')}
      </p>
    </div>
  );
}
