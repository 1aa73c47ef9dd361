'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import {
  type AuditFilters,
  auditCsvUrl,
  auditFilterParams,
  NO_AUDIT_FILTERS,
} from '../../lib/admin/audit-filters';
import type { AuditEntry } from '../../lib/admin/audit-words';
import { useApiUrl } from '../../lib/api-url';
import { useTRPC } from '../../lib/trpc';
import { DateTime } from '../ui/date-time';
import { EmptyState } from '../ui/empty-state';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';
import { AuditCsvDownload, AuditFiltersForm } from './audit-filters';
import { useAuditText } from './audit-sentence';

const LIMIT = 25;

/** One entry: the sentence, when, and (folded) the action code and ids for whoever needs them. */
export function AuditItem({ entry }: { entry: AuditEntry }) {
  const t = useTranslations('admin.audit');
  const text = useAuditText();
  return (
    <li className="grid min-w-0 gap-1 border-t py-3 first:border-t-0" data-testid="audit-entry">
      <p className="m-0 break-words">{text(entry)}</p>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm text-muted-foreground">
        <DateTime value={entry.createdAt} relative />
        <details className="min-w-0">
          <summary className="cursor-pointer">{t('details')}</summary>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt>{t('fields.action')}</dt>
            <dd className="m-0 font-mono break-all">{entry.action}</dd>
            <dt>{t('fields.target')}</dt>
            <dd className="m-0 font-mono break-all">
              {entry.targetType} {entry.targetId}
            </dd>
            <dt>{t('fields.actor')}</dt>
            <dd className="m-0 font-mono break-all">{entry.actorId ?? t('actor.operator')}</dd>
            <dt>{t('fields.entry')}</dt>
            <dd className="m-0 font-mono break-all">{entry.id}</dd>
          </dl>
        </details>
      </div>
    </li>
  );
}

/** Who did what to whom, when and why, in sentences; newest first; filtered, and as a CSV download. */
export function AuditLog() {
  const t = useTranslations('admin.audit');
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const log = useQuery({
    ...trpc.adminUsers.auditLog.queryOptions({ ...auditFilterParams(filters), page, limit: LIMIT }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="audit-heading" className="grid min-w-0 gap-4">
      <h2 id="audit-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <AuditFiltersForm
        onApply={(f) => {
          setFilters(f);
          setPage(1);
        }}
      />
      <AuditCsvDownload url={auditCsvUrl(apiUrl, filters)} />
      <QueryState query={log}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState icon={ScrollText} title={t('empty')} testId="audit-log" />
          ) : (
            <>
              <ol className="m-0 grid list-none p-0" data-testid="audit-log" aria-busy={log.isFetching}>
                {data.items.map((e) => (
                  <AuditItem key={e.id} entry={e} />
                ))}
              </ol>
              <Pager
                label={t('pages')}
                page={data.pagination.page}
                pageCount={data.pagination.totalPages}
                onPageChange={setPage}
              />
            </>
          )
        }
      </QueryState>
    </section>
  );
}
