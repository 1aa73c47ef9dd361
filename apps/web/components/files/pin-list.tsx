'use client';
import { Pin } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { type StatusFilter, usePins } from '../../lib/files/pins';
import { EmptyState } from '../ui/empty-state';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';
import { Select } from '../ui/select';
import { PinRow } from './pin-row';

const FILTERS: StatusFilter[] = ['all', 'pinning', 'pinned', 'failed'];

/** My pins with their file metadata, newest first, a page at a time (`storage.myPins`); no pager for one page. */
export function PinList({ onMetadata }: { onMetadata: (cid: string) => void }) {
  const t = useTranslations('files.pins');
  const filterId = useId();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const pins = usePins({ page, status });

  return (
    <section aria-labelledby="pins-heading" className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="pins-heading" className="m-0 text-xl font-semibold">
          {t('title')}
        </h2>
        <div className="flex items-center gap-2">
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
      </div>
      <QueryState query={pins}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState
              icon={Pin}
              testId="no-pins"
              title={page > 1 ? t('noOlder') : status === 'all' ? t('empty') : t('emptyFiltered')}
              description={status === 'all' && page === 1 ? t('emptyHint') : undefined}
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
