'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { directoryInput } from '../../lib/governance/page-reads';
import type { DaoStatus } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { useSearchParam } from '../../lib/use-search-param';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { QueryState } from '../ui/query-state';
import { Pager, SelectField } from './controls';
import { DaoList } from './dao-list';
import { CardsSkeleton } from './skeletons';

/** A governance page's title row: the heading and, at the other end, its main action. */
export const PAGE_HEADER = 'flex flex-wrap items-center justify-between gap-x-4 gap-y-2';

/**
 * Every DAO, newest first, paged, with a status filter and a search over names and descriptions (?q=, sent
 * once typing pauses; a new search starts at page 1).
 */
export function DaoDirectory() {
  const t = useTranslations('governance.directory');
  const ts = useTranslations('governance.status');
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DaoStatus | ''>('');
  const [q, setQ] = useSearchParam('q');
  const [text, setText] = useState(q ?? '');
  useEffect(() => {
    if (text.trim() === (q ?? '').trim()) return;
    const typing = setTimeout(() => {
      setQ(text.trim() || null);
      setPage(1);
    }, 300);
    return () => clearTimeout(typing);
  }, [text, q, setQ]);
  const list = useQuery({
    ...trpc.governance.daos.list.queryOptions(directoryInput(page, status, q ?? '')),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="flex flex-col gap-4">
      <header className={PAGE_HEADER}>
        <h1 className="min-w-0 break-words">{t('title')}</h1>
        <Button asChild>
          <Link href="/daos/new">
            <Plus aria-hidden="true" />
            {t('create')}
          </Link>
        </Button>
      </header>
      <div className="grid max-w-3xl gap-3 sm:grid-cols-2">
        <Field
          label={t('search')}
          name="q"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={100}
          autoComplete="off"
          placeholder={t('searchPlaceholder')}
        />
        <SelectField
          label={t('status')}
          name="status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as DaoStatus | '');
            setPage(1);
          }}
        >
          <option value="">{t('all')}</option>
          <option value="ACTIVE">{ts('ACTIVE')}</option>
          <option value="INACTIVE">{ts('INACTIVE')}</option>
          <option value="PENDING">{t('pendingApproval')}</option>
        </SelectField>
      </div>
      <QueryState query={list} loading={<CardsSkeleton count={4} testId="directory-skeleton" />}>
        {(data) => (
          <>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {q
                ? t('found', { count: data.pagination.total, q })
                : t('count', { count: data.pagination.total })}
            </p>
            <DaoList daos={data.items} empty={q ? t('noMatch', { q }) : t('empty')} testId="dao-list" />
            <Pager label={t('pages')} page={page} totalPages={data.pagination.totalPages} onPage={setPage} />
          </>
        )}
      </QueryState>
    </div>
  );
}
