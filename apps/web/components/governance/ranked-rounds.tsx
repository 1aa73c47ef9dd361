'use client';
import { useLocale, useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { formatPercent, formatScore } from '../../lib/governance/format';
import { type Round, roundSteps } from '../../lib/governance/rounds';

/**
 * The instant-runoff rounds of a ranked-choice proposal, one step each: the options still in the race
 * with their scores (highest first) and share of the weight still counted, then the option eliminated
 * after the round (none in the last one).
 */
export function RankedRounds({ rounds, winner }: { rounds: Round[]; winner: string | null }) {
  const t = useTranslations('governance.rounds');
  const locale = useLocale();
  const steps = roundSteps(rounds);
  const last = steps.length - 1;
  return (
    <section className="mt-4" aria-labelledby="rounds-heading" data-testid="rounds">
      <h3 id="rounds-heading" className="mb-2 text-base">
        {t('heading')}
      </h3>
      <ol className="flex flex-col gap-2">
        {steps.map((r, i) => (
          <li key={r.round} className="border-l-[3px] border-border pl-3" data-testid={`round-${r.round}`}>
            <div>
              <strong>{t('round', { round: r.round })}</strong>
              <span className="text-sm text-muted-foreground">
                {' · '}
                {t('counted', { weight: formatScore(r.remainingWeight, 4, locale) })}
              </span>
            </div>
            <ul className="mt-1 flex flex-col gap-0.5">
              {r.scores.map((s) => (
                <li key={s.option} data-option={s.option} data-weight={s.weight}>
                  <span
                    className={cn('font-semibold break-words', s.option === r.eliminated && 'line-through')}
                  >
                    {s.option}
                  </span>{' '}
                  <span className="text-sm text-muted-foreground">
                    {formatScore(s.weight, 4, locale)} ({formatPercent(s.share, locale)})
                  </span>
                </li>
              ))}
            </ul>
            <p className="mt-1 mb-0 text-sm" data-testid={`round-${r.round}-outcome`}>
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
