'use client';
import { FolderUp, Upload } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import { cn } from '../../lib/cn';
import {
  directoryUploadsSupported,
  folderNameOf,
  type PickedFile,
  pickedFromDrop,
  pickedFromInput,
} from '../../lib/files/folder';
import { refusal } from '../../lib/files/limits';
import { useRefreshPins } from '../../lib/files/pins';
import { useUploadLimits } from '../../lib/files/use-upload-limits';
import { xhrUpload } from '../../lib/files/xhr-upload';
import { useSessionToken } from '../../lib/session';
import { buttonVariants } from '../ui/button';
import { UploadItem, type UploadResult, type Upload as UploadState } from './upload-item';
import { useFileWords } from './use-file-words';

let nextKey = 0;

/**
 * Drop files or a folder here, or choose several files or a folder: each file is checked against the
 * server's limits first (a file over the size limit is refused at once and never sent), then streamed to
 * POST /ipfs/upload with its own progress bar and result. A folder goes as one upload (one folder CID)
 * where the server takes folders (lib/files/folder.ts), else file by file. The server decides the type.
 */
export function UploadZone() {
  const t = useTranslations('files.upload');
  const words = useFileWords();
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const refreshPins = useRefreshPins();
  const limits = useUploadLimits();
  const inputId = useId();
  const folderId = useId();
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [oneByOne, setOneByOne] = useState(false);
  const [items, setItems] = useState<UploadState[]>([]);

  const update = (key: number, patch: Partial<UploadState>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  async function send(item: UploadState) {
    try {
      const result = await xhrUpload<UploadResult>({
        url: `${apiUrl}/ipfs/upload${item.folder ? '?wrapWithDirectory=true' : ''}`,
        method: 'POST',
        field: 'file',
        file: item.parts,
        ...(item.folder ? { fields: { wrapWithDirectory: 'true' } } : {}),
        token,
        onProgress: (p) => update(item.key, { loaded: Math.min(p.loaded, item.size) }),
      });
      update(item.key, { state: 'done', loaded: item.size, result });
      await refreshPins();
    } catch (err) {
      update(item.key, { state: 'failed', message: words.failure(err, limits.data, item.size) });
    }
  }

  function itemOf(picked: PickedFile[], folder: string | null): UploadState {
    const size = picked.reduce((n, p) => n + p.file.size, 0);
    const refused = limits.data
      ? picked.map((p) => ({ p, r: refusal(p.file, limits.data) })).find((x) => x.r)
      : undefined;
    const reason = refused?.r && limits.data ? words.refusal(refused.r, limits.data.allowedFileTypes) : null;
    return {
      key: nextKey++,
      label: folder ?? picked[0]?.path ?? '',
      parts: picked.map((p) => ({ file: p.file, name: p.path })),
      folder: folder !== null,
      size,
      loaded: 0,
      state: reason ? 'refused' : 'uploading',
      message: reason && folder ? `${refused?.p.path}: ${reason}` : reason,
      result: null,
    };
  }

  function start(picked: PickedFile[], fromFolder: boolean) {
    if (!picked.length) return;
    const folder = fromFolder ? (folderNameOf(picked) ?? t('folder')) : null;
    const asFolder = folder !== null && directoryUploadsSupported(limits.data);
    setOneByOne(folder !== null && !asFolder);
    const added = asFolder ? [itemOf(picked, folder)] : picked.map((p) => itemOf([p], null));
    setItems((all) => [...added, ...all].slice(0, Math.max(20, added.length)));
    for (const item of added) if (item.state === 'uploading') void send(item);
    for (const el of [input.current, folderInput.current]) if (el) el.value = '';
  }

  async function onDrop(e: DragEvent<HTMLElement>) {
    e.preventDefault();
    setDragging(false);
    const { picked, folder } = await pickedFromDrop(e.dataTransfer);
    start(picked, folder);
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
        onDrop={(e) => void onDrop(e)}
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
          onChange={(e) => start(pickedFromInput(e.target.files ?? []), false)}
        />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <label
          htmlFor={folderId}
          className={cn(
            buttonVariants({ variant: 'outline', size: 'sm' }),
            'cursor-pointer focus-within:ring-[3px] focus-within:ring-ring/50',
          )}
        >
          <FolderUp aria-hidden />
          {t('chooseFolder')}
        </label>
        <input
          id={folderId}
          ref={folderInput}
          type="file"
          multiple
          className="sr-only"
          aria-describedby={`${inputId}-rules`}
          {...{ webkitdirectory: '' }}
          onChange={(e) => start(pickedFromInput(e.target.files ?? []), true)}
        />
      </div>
      {oneByOne && (
        <p className="m-0 text-sm text-muted-foreground" role="status" data-testid="folder-one-by-one">
          {t('oneByOne')}
        </p>
      )}
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
