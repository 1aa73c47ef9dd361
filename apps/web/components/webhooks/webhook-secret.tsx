'use client';
import { useTranslations } from 'next-intl';
import { CopyButton } from '../files/copy-button';
import { Alert, AlertDescription } from '../ui/alert';
import { Input } from '../ui/input';

/** A signing secret, shown this once (after adding a webhook or rotating its secret), with a copy button. */
export function WebhookSecret({ secret, rotated = false }: { secret: string; rotated?: boolean }) {
  const t = useTranslations('webhooks');
  return (
    <Alert variant="success" role="status" data-testid="webhook-secret" className="min-w-0">
      <AlertDescription>
        <p>{rotated ? t('secretRotated') : t('secretOnce')}</p>
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Input
            readOnly
            value={secret}
            aria-label={t('secretLabel')}
            className="min-w-0 flex-1 basis-60 font-mono text-sm"
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton
            text={secret}
            label={t('copy')}
            copiedLabel={t('copied')}
            failedLabel={t('copyFailed')}
          />
        </div>
      </AlertDescription>
    </Alert>
  );
}
