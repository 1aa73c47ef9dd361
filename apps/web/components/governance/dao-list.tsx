'use client';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { formatPercent } from '../../lib/governance/format';
import type { DaoSummary } from '../../lib/governance/types';
import { MarkdownInline } from './markdown';
import { StatusBadge } from './status-badge';

/** a card as a list item (components/ui/card's look) */
export const CARD =
  'flex min-w-0 flex-col gap-1 rounded-xl border bg-card p-4 text-card-foreground shadow-sm';
export const CARD_TITLE = 'flex flex-wrap items-center justify-between gap-x-4 gap-y-2';

/** DAO cards: name, status, counts and rules at a glance. */
export function DaoList({ daos, empty, testId }: { daos: DaoSummary[]; empty: string; testId?: string }) {
  const t = useTranslations('governance.daoCard');
  const locale = useLocale();
  if (daos.length === 0) return <p className="text-muted-foreground">{empty}</p>;
  return (
    <ul className="flex flex-col gap-3" data-testid={testId}>
      {daos.map((d) => (
        <li key={d.daoId} className={CARD}>
          <div className={CARD_TITLE}>
            <Link href={`/daos/${d.daoId}`} className="min-w-0 font-semibold break-words">
              {d.name}
            </Link>
            <StatusBadge status={d.status} />
          </div>
          {d.description && (
            <MarkdownInline className="my-1 line-clamp-2 break-words">{d.description}</MarkdownInline>
          )}
          <p className="m-0 text-sm text-muted-foreground">
            {t('summary', {
              members: d.memberCount,
              proposals: d.proposalCount,
              threshold: formatPercent(d.votingRules.threshold, locale),
            })}
            {d.votingRules.tokenWeighted ? t('tokenWeighted') : ''}
          </p>
        </li>
      ))}
    </ul>
  );
}
