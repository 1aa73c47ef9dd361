'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { byScore, formatPercent } from '../../lib/governance/format';
import type { ProposalSummary, Results } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { Countdown } from './countdown';
import { StatusBadge } from './status-badge';
import { useSystemText } from './voting-system-field';

const FILL: Record<string, string> = {
  for: 'bg-emerald-600 dark:bg-emerald-400',
  yes: 'bg-emerald-600 dark:bg-emerald-400',
  against: 'bg-red-600 dark:bg-red-400',
  no: 'bg-red-600 dark:bg-red-400',
  abstain: 'bg-zinc-400 dark:bg-zinc-500',
};
const OTHER = [
  'bg-sky-600 dark:bg-sky-400',
  'bg-violet-600 dark:bg-violet-400',
  'bg-amber-500',
  'bg-teal-600',
];

/**
 * A thin stacked bar of the options' shares of the weight cast, with a tick at the quorum on the
 * participation scale beneath it.
 */
function TallyBar({ results }: { results: Results }) {
  const t = useTranslations('governance.rows');
  if (results.hidden) return <span className="text-xs text-muted-foreground">{t('hidden')}</span>;
  const options = byScore(results.options);
  const total = options.reduce((sum, o) => sum + Number(o.weight), 0);
  let other = 0;
  return (
    <div className="flex flex-col gap-1" aria-hidden="true">
      <div className="flex h-1.5 w-full overflow-hidden rounded-full bg-muted">
        {total > 0 &&
          options.map((o) => {
            const colour = FILL[o.option.trim().toLowerCase()] ?? OTHER[other++ % OTHER.length];
            return (
              <div
                key={o.option}
                className={colour}
                style={{ width: `${(Number(o.weight) / total) * 100}%` }}
              />
            );
          })}
      </div>
      <div className="relative h-1 w-full rounded-full bg-muted">
        <div
          className="absolute inset-y-0 left-0 rounded-full bg-foreground/50"
          style={{ width: `${Math.min(100, results.turnoutPercent)}%` }}
        />
        {results.quorumPercent > 0 && (
          <div
            className="absolute -top-1 -bottom-1 w-0.5 bg-foreground"
            style={{ left: `${Math.min(100, results.quorumPercent)}%` }}
            data-testid="quorum-tick"
          />
        )}
      </div>
    </div>
  );
}

function ProposalRow({ p }: { p: ProposalSummary }) {
  const t = useTranslations('governance');
  const locale = useLocale();
  const systemText = useSystemText();
  const trpc = useTRPC();
  const results = useQuery(trpc.governance.votes.results.queryOptions({ proposalId: p.proposalId }));
  const r = results.data;
  return (
    <li
      className="flex min-w-0 flex-col gap-2 rounded-lg border bg-card p-3"
      data-testid={`proposal-row-${p.proposalId}`}
    >
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
        <Link href={`/proposals/${p.proposalId}`} className="min-w-0 font-medium break-words hover:underline">
          {p.title}
        </Link>
        <StatusBadge status={r?.status ?? p.status} />
      </div>
      {/* the bar's height is kept while the results load: nothing below it moves when they come */}
      {r ? <TallyBar results={r} /> : <div className="h-3.5" aria-hidden="true" />}
      <p className="flex flex-wrap gap-x-2 text-xs text-muted-foreground">
        <span data-testid="row-votes">{r ? t('results.votes', { count: r.totalVotes }) : '…'}</span>
        {r && r.quorumPercent > 0 && (
          <span>· {t('rows.quorum', { percent: formatPercent(r.quorumPercent, locale) })}</span>
        )}
        <span>·</span>
        <Countdown status={r?.status ?? p.status} startTime={p.startTime} endTime={p.endTime} />
        <span>· {systemText(p.votingSystem).name}</span>
      </p>
    </li>
  );
}

/** Proposal rows: title, status, vote count, a thin tally bar with the quorum tick, the countdown. */
export function ProposalList({ proposals, empty }: { proposals: ProposalSummary[]; empty: string }) {
  if (proposals.length === 0)
    return (
      <p
        className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground"
        data-testid="no-proposals"
      >
        {empty}
      </p>
    );
  return (
    <ul className="flex flex-col gap-2" data-testid="proposals">
      {proposals.map((p) => (
        <ProposalRow key={p.proposalId} p={p} />
      ))}
    </ul>
  );
}
