'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { dateTime, formatBytes, shortCid } from '../../lib/files/format';
import { type MyPin, useRefreshPins } from '../../lib/files/pins';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { FilePreview } from './file-preview';

/** One pin: its CID, status, preview and unpin. */
export function PinRow({ pin, onMetadata }: { pin: MyPin; onMetadata: (cid: string) => void }) {
  const trpc = useTRPC();
  const refreshPins = useRefreshPins();
  const [previewing, setPreviewing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const unpin = useMutation(
    trpc.storage.unpin.mutationOptions({
      onSuccess: () => refreshPins(),
    }),
  );
  const { cid, status } = pin;
  const label = pin.name ?? pin.metadata.filename;
  return (
    <li className="pin card" data-testid="pin" data-cid={cid} data-status={status}>
      <div className="pin-head">
        <code className="address" title={cid}>
          <span className="pin-cid-full">{cid}</span>
          <span className="pin-cid-short" aria-hidden="true">
            {shortCid(cid)}
          </span>
        </code>
        <span className={`badge status-${status}`} data-testid="pin-status">
          {status}
        </span>
      </div>
      <p className="muted pin-meta">
        {label ? `${label} · ` : ''}
        {pin.metadata.size != null ? `${formatBytes(pin.metadata.size)} · ` : ''}
        {status === 'pinned' ? 'pinned' : 'requested'} {dateTime(pin.createdAt)}
        {pin.failureReason ? ` · ${pin.failureReason}` : ''}
      </p>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          aria-expanded={previewing}
          onClick={() => setPreviewing((v) => !v)}
        >
          {previewing ? 'Hide preview' : 'Preview'}
        </button>
        <button type="button" className="secondary" onClick={() => onMetadata(cid)}>
          Metadata
        </button>
        {confirming ? (
          <>
            <button
              type="button"
              className="danger"
              disabled={unpin.isPending}
              onClick={() => unpin.mutate({ cid })}
            >
              {unpin.isPending ? 'Unpinning…' : 'Yes, unpin'}
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            Unpin
          </button>
        )}
      </div>
      {unpin.isError && <ErrorAlert error={readable(unpin.error)} />}
      {previewing && <FilePreview cid={cid} />}
    </li>
  );
}
