'use client';
import { CheckCircle2, CircleAlert, Loader2 } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { useFileWords } from './use-file-words';

export interface UploadResult {
  cid: string;
  size: number;
  mimetype?: string;
  filename?: string | null;
}

export interface Upload {
  key: number;
  /** the file's path (its name, or its path inside a chosen folder), or the folder's name */
  label: string;
  /** what is sent: one part, or every file of a folder under its path */
  parts: { file: File; name: string }[];
  /** a folder sent as one upload (one directory CID) */
  folder: boolean;
  size: number;
  loaded: number;
  state: 'uploading' | 'done' | 'failed' | 'refused';
  /** why it failed or was refused, in words */
  message: string | null;
  result: UploadResult | null;
}

/** One upload (a file, or a folder sent as one): its name and size, its progress, then its CID or why it failed. */
export function UploadItem({ item }: { item: Upload }) {
  const t = useTranslations('files.upload');
  const words = useFileWords();
  const { label, state, size } = item;
  const percent = state === 'done' ? 100 : size ? Math.min(100, Math.round((item.loaded / size) * 100)) : 0;
  const Icon = state === 'done' ? CheckCircle2 : state === 'uploading' ? Loader2 : CircleAlert;
  return (
    <li
      className="grid min-w-0 gap-2 rounded-lg border bg-card p-3"
      data-testid="upload-item"
      data-name={label}
      data-state={state}
      data-folder={item.folder || undefined}
    >
      <div className="flex min-w-0 items-center gap-2">
        <Icon
          className={cn(
            'size-4 shrink-0',
            state === 'done' && 'text-success',
            state === 'uploading' && 'animate-spin text-muted-foreground',
            (state === 'failed' || state === 'refused') && 'text-destructive',
          )}
          aria-hidden
        />
        <span className="min-w-0 flex-1 truncate font-medium" title={label}>
          {label}
        </span>
        <span className="shrink-0 text-sm text-muted-foreground">{words.size(size)}</span>
      </div>
      {state !== 'refused' && (
        <div
          role="progressbar"
          aria-label={t('progressOf', { name: label })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 w-full overflow-hidden rounded-full bg-muted"
          data-testid="upload-progress"
        >
          <div
            className={cn(
              'h-full rounded-full transition-[width]',
              state === 'failed' ? 'bg-destructive' : 'bg-primary',
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      <p className="m-0 text-sm break-words" aria-live="polite">
        {state === 'uploading' && t('uploading', { percent })}
        {state === 'done' && item.result && (
          <span data-testid="upload-done">
            {item.folder
              ? t('doneFolder', { name: label, count: item.parts.length, size: words.size(item.result.size) })
              : t('done', {
                  name: item.result.filename ?? label,
                  kind: words.kind(item.result.mimetype),
                  size: words.size(item.result.size),
                })}{' '}
            <code className="break-all">{item.result.cid}</code>
          </span>
        )}
        {(state === 'failed' || state === 'refused') && (
          <span className="text-destructive" role="alert" data-testid="upload-failed">
            {state === 'refused' ? t('refused', { reason: item.message ?? '' }) : item.message}
          </span>
        )}
      </p>
    </li>
  );
}
