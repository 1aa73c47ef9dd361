'use client';
import { useId, useState } from 'react';
import { PAGE_SIZE, type StatusFilter, usePins } from '../../lib/files/pins';
import { readable } from '../../lib/files/readable';
import { ErrorAlert } from '../alert';
import { PinRow } from './pin-row';

/** My pins, newest first, paged with the Pinning Service API's `before` cursor. */
export function PinList({ onMetadata }: { onMetadata: (cid: string) => void }) {
  const filterId = useId();
  const [status, setStatus] = useState<StatusFilter>('all');
  // cursors of the pages before this one; the last is this page's `before`
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors.at(-1) ?? null;
  const pins = usePins({ before, status });
  const results = pins.data?.results ?? [];
  const hasOlder = (pins.data?.count ?? 0) > results.length;

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
              setCursors([]);
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
          {cursors.length ? 'No older pins.' : 'No pins yet. Upload a file or pin a CID.'}
        </p>
      )}
      {results.length > 0 && (
        <ul className="pins" data-testid="pins" aria-busy={pins.isFetching}>
          {results.map((p) => (
            <PinRow key={p.requestid} pin={p} onMetadata={onMetadata} />
          ))}
        </ul>
      )}
      <nav className="pager" aria-label="Pin pages">
        <button
          type="button"
          className="secondary"
          disabled={cursors.length === 0}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </button>
        <span className="muted">
          Page {cursors.length + 1}
          {pins.data && cursors.length === 0 ? ` · ${pins.data.count} in all` : ''}
        </span>
        <button
          type="button"
          className="secondary"
          disabled={!hasOlder || results.length < PAGE_SIZE}
          onClick={() => {
            const last = results.at(-1);
            if (last) setCursors((c) => [...c, last.created]);
          }}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
