'use client';
import type { MyPinsSort } from '@plenum/validators';
import { Pin, Search } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { SORTS, type StatusFilter, usePins } from '../../lib/files/pins';
import { EmptyState } from '../ui/empty-state';
import { Input } from '../ui/input';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';
import { Select } from '../ui/select';
import { PinRow } from './pin-row';

const FILTERS: StatusFilter[] = ['all', 'pinning', 'pinned', 'failed'];

/** what was typed, once typing pauses: one request per search, not one per key */
function useSettled(value: string, ms = 300) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * My pins with their file metadata, a page at a time (`storage.myPins`), searched by name, file name,
 * CID and meta values and sorted on the server; no pager for one page.
 */
export function PinList({ onMetadata }: { onMetadata: (cid: string) => void }) {
  const t = useTranslations('files.pins');
  const filterId = useId();
  const sortId = useId();
  const searchId = useId();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [sort, setSort] = useState<MyPinsSort>('newest');
  const [typed, setTyped] = useState('');
  const q = useSettled(typed);
  const [page, setPage] = useState(1);
  // a new search starts on its first page
  useEffect(() => setPage(1), [q]);
  const pins = usePins({ page, status, q, sort });
  const searching = q.trim() !== '';

  return (
    <section aria-labelledby="pins-heading" className="grid min-w-0 gap-3">
      <h2 id="pins-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <search aria-label={t('searchArea')} className="flex min-w-0 flex-wrap items-end gap-3">
        <div className="grid min-w-0 flex-1 basis-56 gap-1">
          <label htmlFor={searchId} className="text-sm font-medium">
            {t('search')}
          </label>
          <div className="relative min-w-0">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id={searchId}
              type="search"
              value={typed}
              placeholder={t('searchHint')}
              className="h-9 pl-9 text-sm"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
        </div>
        <div className="grid gap-1">
          <label htmlFor={sortId} className="text-sm font-medium whitespace-nowrap">
            {t('sort')}
          </label>
          <Select
            id={sortId}
            value={sort}
            className="h-9 w-auto text-sm"
            wrapperClassName="w-auto"
            onChange={(e) => {
              setSort(e.target.value as MyPinsSort);
              setPage(1);
            }}
          >
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`sortBy.${s}`)}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1">
          <label htmlFor={filterId} className="shrink-0 text-sm font-medium whitespace-nowrap">
            {t('status')}
          </label>
          <Select
            id={filterId}
            value={status}
            className="h-9 w-auto text-sm"
            wrapperClassName="w-auto"
            onChange={(e) => {
              setStatus(e.target.value as StatusFilter);
              setPage(1);
            }}
          >
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {t(`filter.${f}`)}
              </option>
            ))}
          </Select>
        </div>
      </search>
      <QueryState query={pins}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState
              icon={Pin}
              testId="no-pins"
              title={
                page > 1
                  ? t('noOlder')
                  : searching
                    ? t('noMatch', { q: q.trim() })
                    : status === 'all'
                      ? t('empty')
                      : t('emptyFiltered')
              }
              description={status === 'all' && page === 1 && !searching ? t('emptyHint') : undefined}
            />
          ) : (
            <>
              <ul className="m-0 grid list-none gap-3 p-0" data-testid="pins" aria-busy={pins.isFetching}>
                {data.items.map((p) => (
                  <PinRow key={p.id} pin={p} onMetadata={onMetadata} />
                ))}
              </ul>
              <Pager
                label={t('pages')}
                page={page}
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
