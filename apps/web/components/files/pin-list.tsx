'use client';
import { useId, useState } from 'react';
import { type StatusFilter, usePins } from '../../lib/files/pins';
import { readable } from '../../lib/files/readable';
import { ErrorAlert } from '../alert';
import { PinRow } from './pin-row';

/** My pins with their file metadata, newest first, a page at a time (`storage.myPins`). */
export function PinList({ onMetadata }: { onMetadata: (cid: string) => void }) {
  const filterId = useId();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const pins = usePins({ page, status });
  const results = pins.data?.items ?? [];
  const totalPages = pins.data?.pagination.totalPages ?? 1;

  return (
    <section aria-labelledby="pins-heading" className="stack">
      <div className="section-head">
        <h2 id="pins-heading">My pins</h2>
        <div className="field inline-field">
          <label htmlFor={filterId}>Status</label>
          <select
            id={filterId}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as StatusFilter);
              setPage(1);
            }}
          >
            <option value="all">All</option>
            <option value="pinning">Pinning</option>
            <option value="pinned">Pinned</option>
            <option value="failed">Failed</option>
          </select>
        </div>
      </div>
      {pins.isPending && <p aria-live="polite">Loading your pins…</p>}
      {pins.isError && <ErrorAlert error={readable(pins.error)} />}
      {pins.data && results.length === 0 && (
        <p data-testid="no-pins">
          {page > 1 ? 'No older pins.' : 'No pins yet. Upload a file or pin a CID.'}
        </p>
      )}
      {results.length > 0 && (
        <ul className="pins" data-testid="pins" aria-busy={pins.isFetching}>
          {results.map((p) => (
            <PinRow key={p.id} pin={p} onMetadata={onMetadata} />
          ))}
        </ul>
      )}
      <nav className="pager" aria-label="Pin pages">
        <button
          type="button"
          className="secondary"
          disabled={page === 1}
          onClick={() => setPage((n) => Math.max(1, n - 1))}
        >
          Newer
        </button>
        <span className="muted">
          Page {page} of {Math.max(1, totalPages)}
          {pins.data ? ` · ${pins.data.pagination.total} in all` : ''}
        </span>
        <button
          type="button"
          className="secondary"
          disabled={page >= totalPages}
          onClick={() => setPage((n) => n + 1)}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
