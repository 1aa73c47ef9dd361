'use client';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { type StorageUsage, usedPercent, useStorageUsage } from '../../lib/files/usage';
import { useFileWords } from './use-file-words';

/** The caller's storage against the quota (nothing until it is read). */
export function UsageBar() {
  const usage = useStorageUsage();
  return usage.data ? <UsageMeter usage={usage.data} /> : null;
}

/** "120 MB of 1 GB used · 14 pins, 2 being fetched" with a meter; unlimited: the total alone. */
export function UsageMeter({ usage }: { usage: StorageUsage }) {
  const t = useTranslations('files.usage');
  const words = useFileWords();
  const percent = usedPercent(usage);
  const used = words.size(usage.usedBytes);
  const summary =
    percent === null
      ? t('unlimited', { used })
      : t('ofLimit', { used, limit: words.size(usage.limitBytes ?? 0), percent });
  return (
    <section aria-labelledby="usage-heading" className="grid min-w-0 gap-2" data-testid="usage">
      <h2 id="usage-heading" className="sr-only">
        {t('title')}
      </h2>
      <p className="m-0 text-sm" id="usage-summary">
        {summary} · {t('pins', { pins: usage.pins, pending: usage.pendingPins })}
      </p>
      {percent !== null && (
        // biome-ignore lint/a11y/useSemanticElements: a <meter>'s bar cannot be styled alike across browsers
        <div
          role="meter"
          aria-labelledby="usage-heading"
          aria-describedby="usage-summary"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={t('percent', { percent })}
          className="h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn(
              'h-full rounded-full',
              percent >= 95 ? 'bg-destructive' : percent >= 80 ? 'bg-warning' : 'bg-primary',
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
    </section>
  );
}
