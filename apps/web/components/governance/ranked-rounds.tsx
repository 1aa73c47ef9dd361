'use client';
import { useLocale, useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { formatPercent, formatScore } from '../../lib/governance/format';
import { type Round, roundSteps } from '../../lib/governance/rounds';

/**
 * The instant-runoff rounds of a ranked-choice proposal, one step each: the options still in the race
 * with their scores (highest first) and share of the weight still counted, then the option eliminated
 * after the round (none in the last one). A card of its own under the proposal's body (proposal-view.tsx),
 * where a long option name has the width to wrap: each option's name on its own line over its share bar,
 * the figures beside it or under it on a narrow screen.
 */
export function RankedRounds({
  rounds,
  winner,
  className,
}: {
  rounds: Round[];
  winner: string | null;
  className?: string;
}) {
  const t = useTranslations('governance.rounds');
  const locale = useLocale();
  const steps = roundSteps(rounds);
  const last = steps.length - 1;
  return (
    <section
      className={cn('flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4', className)}
      aria-labelledby="rounds-heading"
      data-testid="rounds"
    >
      <h2 id="rounds-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <ol className="flex min-w-0 flex-col gap-4">
        {steps.map((r, i) => (
          <li
            key={r.round}
            className="min-w-0 border-l-[3px] border-border pl-3"
            data-testid={`round-${r.round}`}
          >
            <div className="flex flex-wrap items-baseline gap-x-2">
              <strong>{t('round', { round: r.round })}</strong>
              <span className="text-sm text-muted-foreground">
                {t('counted', { weight: formatScore(r.remainingWeight, 4, locale) })}
              </span>
            </div>
            <ul className="mt-2 flex min-w-0 flex-col gap-2">
              {r.scores.map((s) => {
                const out = s.option === r.eliminated;
                return (
                  <li key={s.option} className="min-w-0" data-option={s.option} data-weight={s.weight}>
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                      <span className={cn('min-w-0 font-semibold break-words', out && 'line-through')}>
                        {s.option}
                      </span>{' '}
                      <span className="text-sm text-muted-foreground tabular-nums">
                        {formatScore(s.weight, 4, locale)} ({formatPercent(s.share, locale)})
                      </span>
                    </div>
                    <div className="mt-1 h-1.5 rounded-full bg-muted" aria-hidden="true">
                      <div
                        className={cn(
                          'h-full rounded-full',
                          out ? 'bg-zinc-400 dark:bg-zinc-500' : 'bg-primary',
                        )}
                        style={{ width: `${Math.min(100, s.share)}%` }}
                      />
                    </div>
                  </li>
                );
              })}
            </ul>
            <p className="mt-2 mb-0 text-sm" data-testid={`round-${r.round}-outcome`}>
              {r.eliminated
                ? t('eliminated', { option: r.eliminated })
                : i === last
                  ? winner
                    ? t('final', { option: winner })
                    : t('noLeader')
                  : null}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
