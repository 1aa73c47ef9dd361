'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { historyValue } from '../../lib/governing/history-value';
import { useTRPC } from '../../lib/trpc';
import { Pager } from '../governance/controls';
import { Address, shortAddress } from '../ui/address';
import { DateTime, useFormatDateTime } from '../ui/date-time';
import { QueryState } from '../ui/query-state';

const LIMIT = 10;

type Entry = {
  changedAt: string;
  actorAddress: string | null;
  changes: Record<string, { from?: unknown; to?: unknown }>;
};

/**
 * A DAO's history (governance.settings.history) or a proposal's (governance.proposals.history), newest
 * first and paged: when, who, and each field from → to.
 */
export function HistoryList(props: { daoId: string } | { proposalId: string }) {
  const t = useTranslations('governing.history');
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const daoHistory = useQuery({
    ...trpc.governance.settings.history.queryOptions({
      daoId: 'daoId' in props ? props.daoId : '',
      page,
      limit: LIMIT,
    }),
    enabled: 'daoId' in props,
    placeholderData: keepPreviousData,
  });
  const proposalHistory = useQuery({
    ...trpc.governance.proposals.history.queryOptions({
      proposalId: 'proposalId' in props ? props.proposalId : '',
      page,
      limit: LIMIT,
    }),
    enabled: 'proposalId' in props,
    placeholderData: keepPreviousData,
  });
  const history = 'daoId' in props ? daoHistory : proposalHistory;
  return (
    <QueryState query={history}>
      {(data) => (
        <div className="flex flex-col gap-3">
          {data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="history-empty">
              {t('empty')}
            </p>
          ) : (
            <ol className="flex flex-col gap-3" data-testid="history" aria-busy={history.isFetching}>
              {data.items.map((entry, i) => (
                <HistoryEntry key={`${entry.changedAt}-${i}`} entry={entry} />
              ))}
            </ol>
          )}
          <Pager label={t('pages')} page={page} totalPages={data.pagination.totalPages} onPage={setPage} />
        </div>
      )}
    </QueryState>
  );
}

function HistoryEntry({ entry }: { entry: Entry }) {
  const t = useTranslations('governing.history');
  const value = useHistoryValue();
  const label = (field: string) => {
    // a role change is named by its address ("roles.0x…")
    if (field.startsWith('roles.'))
      return t('roleOf', { address: shortAddress(field.slice('roles.'.length)) });
    const key = `fields.${ruleName(field)}`;
    return t.has(key) ? t(key) : field;
  };
  return (
    <li className="min-w-0 rounded-md border p-3 text-sm" data-testid="history-entry">
      <p className="flex flex-wrap items-center gap-x-2 text-muted-foreground">
        <DateTime value={entry.changedAt} />
        <span aria-hidden="true">·</span>
        {entry.actorAddress ? (
          <span className="inline-flex min-w-0 items-center gap-x-1">
            {t('by')} <Address address={entry.actorAddress} copy={false} />
          </span>
        ) : (
          <span>{t('byPlatform')}</span>
        )}
      </p>
      <ul className="mt-2 flex flex-col gap-1">
        {Object.entries(entry.changes).map(([field, change]) => (
          <li key={field} className="min-w-0 break-words" data-testid="history-change" data-field={field}>
            <span className="font-medium">{label(field)}</span>
            {': '}
            <span className="text-muted-foreground">{value(field, change.from)}</span>
            {' → '}
            <span>{value(field, change.to)}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** fields holding a time: shown as every date is, with its zone */
const TIMES = new Set(['startTime', 'endTime']);

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** a rule may be named inside its group ("votingRules.quorum"): its words are the rule's */
const ruleName = (field: string) => field.replace(/^votingRules\./, '');

/** a changed value in words: nothing, yes/no, a known rule's name, or the value as text */
function useHistoryValue() {
  const t = useTranslations('governing.history');
  const roles = useTranslations('governing.roles.names');
  const formatDateTime = useFormatDateTime();
  return (field: string, v: unknown) => {
    const shown = historyValue(v);
    if (shown.kind === 'none') return t('none');
    if (TIMES.has(field) && typeof v === 'string' && !Number.isNaN(Date.parse(v))) return formatDateTime(v);
    if (field.startsWith('roles.') && shown.kind === 'text' && roles.has(shown.text))
      return roles(shown.text);
    if (shown.kind === 'boolean') return shown.value ? t('yes') : t('no');
    // an owner or a pending owner: an address as every page shows one (short, the whole on hover)
    if (ADDRESS.test(shown.text)) return <Address address={shown.text} copy={false} />;
    const key = `values.${ruleName(field)}.${shown.text}`;
    return t.has(key) ? t(key) : shown.text;
  };
}

/** A proposal's changes (edits, cancellation), read only once opened: most visitors never look. */
export function ProposalHistory({ proposalId }: { proposalId: string }) {
  const t = useTranslations('governing.history');
  const [open, setOpen] = useState(false);
  return (
    <details
      className="rounded-md border p-3 text-sm"
      data-testid="proposal-history"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="cursor-pointer font-medium">{t('proposalSummary')}</summary>
      {open && (
        <div className="mt-3">
          <HistoryList proposalId={proposalId} />
        </div>
      )}
    </details>
  );
}
