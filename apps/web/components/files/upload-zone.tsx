'use client';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import type { DisplayError } from '../../lib/errors';
import { formatBytes } from '../../lib/files/format';
import { useRefreshPins } from '../../lib/files/pins';
import { readable } from '../../lib/files/readable';
import { type UploadProgress, xhrUpload } from '../../lib/files/xhr-upload';
import { useSessionToken } from '../../lib/session';
import { ErrorAlert, Notice } from '../alert';

interface UploadResult {
  cid: string;
  size: number;
  mimetype: string;
  filename: string | null;
}

/**
 * Drop a file here or choose one: it streams to POST /ipfs/upload with a progress bar. The type is
 * decided by the server from the bytes, so the page only says which types it accepts by default.
 */
export function UploadZone({ onUploaded }: { onUploaded?: (r: UploadResult) => void }) {
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const refreshPins = useRefreshPins();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<DisplayError | null>(null);
  const [done, setDone] = useState<UploadResult | null>(null);
  const busy = progress !== null;

  async function upload(file: File) {
    setError(null);
    setDone(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      const result = await xhrUpload<UploadResult>({
        url: `${apiUrl}/ipfs/upload`,
        method: 'POST',
        field: 'file',
        file,
        token,
        onProgress: setProgress,
      });
      setDone(result);
      onUploaded?.(result);
      await refreshPins();
    } catch (err) {
      setError(readable(err));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  function onDrop(e: DragEvent<HTMLElement>) {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file && !busy) void upload(file);
  }

  const percent = progress?.total ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <section aria-labelledby="upload-heading" className="stack">
      <h2 id="upload-heading">Upload a file</h2>
      <label
        htmlFor={inputId}
        className={`dropzone${dragging ? ' dropzone-active' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span className="dropzone-title">Drop a file here, or choose one</span>
        <span className="muted">
          JPEG, PNG, PDF or plain text by default; the server checks the type from the content.
        </span>
        <input
          id={inputId}
          ref={input}
          type="file"
          aria-label="Choose a file to upload"
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void upload(file);
          }}
        />
      </label>
      {progress && (
        <div className="stack" aria-live="polite">
          <progress max={100} value={percent} aria-label="Upload progress" data-testid="upload-progress" />
          <span className="muted">
            Uploading… {percent} % ({formatBytes(progress.loaded)} of {formatBytes(progress.total)})
          </span>
        </div>
      )}
      <ErrorAlert error={error} />
      {done && (
        <Notice testId="upload-done">
          Uploaded {done.filename ?? 'the file'} ({done.mimetype}, {formatBytes(done.size)}) as{' '}
          <code className="address">{done.cid}</code>
        </Notice>
      )}
    </section>
  );
}
