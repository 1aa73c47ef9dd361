'use client';
import { Upload } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import { cn } from '../../lib/cn';
import { refusal } from '../../lib/files/limits';
import { useRefreshPins } from '../../lib/files/pins';
import { useUploadLimits } from '../../lib/files/use-upload-limits';
import { xhrUpload } from '../../lib/files/xhr-upload';
import { useSessionToken } from '../../lib/session';
import { UploadItem, type UploadResult, type Upload as UploadState } from './upload-item';
import { useFileWords } from './use-file-words';

let nextKey = 0;

/**
 * Drop files here or choose several: each is checked against the server's limits first (a file over the
 * size limit is refused at once and never sent), then streamed to POST /ipfs/upload with its own progress
 * bar and result. The server still decides the type from the bytes.
 */
export function UploadZone() {
  const t = useTranslations('files.upload');
  const words = useFileWords();
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const refreshPins = useRefreshPins();
  const limits = useUploadLimits();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [items, setItems] = useState<UploadState[]>([]);

  const update = (key: number, patch: Partial<UploadState>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  async function send(item: UploadState) {
    try {
      const result = await xhrUpload<UploadResult>({
        url: `${apiUrl}/ipfs/upload`,
        method: 'POST',
        field: 'file',
        file: item.file,
        token,
        onProgress: (p) => update(item.key, { loaded: p.loaded }),
      });
      update(item.key, { state: 'done', loaded: item.file.size, result });
      await refreshPins();
    } catch (err) {
      update(item.key, { state: 'failed', message: words.failure(err, limits.data, item.file.size) });
    }
  }

  function start(files: File[]) {
    if (!files.length) return;
    const added: UploadState[] = files.map((file) => {
      const refused = limits.data ? refusal(file, limits.data) : null;
      return {
        key: nextKey++,
        file,
        loaded: 0,
        state: refused ? 'refused' : 'uploading',
        message: refused && limits.data ? words.refusal(refused, limits.data.allowedFileTypes) : null,
        result: null,
      };
    });
    setItems((all) => [...added, ...all].slice(0, Math.max(20, added.length)));
    for (const item of added) if (item.state === 'uploading') void send(item);
    if (input.current) input.current.value = '';
  }

  function onDrop(e: DragEvent<HTMLElement>) {
    e.preventDefault();
    setDragging(false);
    start([...e.dataTransfer.files]);
  }

  const rules = limits.data
    ? t('rules', {
        types: words.list(limits.data.allowedFileTypes),
        max: words.size(limits.data.maxFileSize),
      })
    : t('rulesLoading');
  return (
    <section aria-labelledby="upload-heading" className="grid min-w-0 gap-3">
      <h2 id="upload-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <label
        htmlFor={inputId}
        className={cn(
          'flex cursor-pointer flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors hover:bg-accent/50 focus-within:ring-[3px] focus-within:ring-ring/50',
          dragging && 'border-primary bg-primary/5',
        )}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Upload className="size-6 text-muted-foreground" aria-hidden />
        <span className="font-medium">{t('drop')}</span>
        <span id={`${inputId}-rules`} className="text-sm text-muted-foreground" data-testid="upload-rules">
          {rules}
        </span>
        <input
          id={inputId}
          ref={input}
          type="file"
          multiple
          className="sr-only"
          aria-label={t('choose')}
          aria-describedby={`${inputId}-rules`}
          onChange={(e) => start([...(e.target.files ?? [])])}
        />
      </label>
      {items.length > 0 && (
        <ul className="m-0 grid list-none gap-2 p-0" aria-label={t('listLabel')}>
          {items.map((i) => (
            <UploadItem key={i.key} item={i} />
          ))}
        </ul>
      )}
    </section>
  );
}
