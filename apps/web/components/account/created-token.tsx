'use client';
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { Input } from '../ui/input';

/** A new token, shown this once, with a copy button (and the text selectable where copying is denied). */
export function CreatedToken({ token, name }: { token: string; name: string }) {
  const t = useTranslations('account.tokens');
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied('yes');
    } catch {
      field.current?.select();
      setCopied('no');
    }
  }

  return (
    <Alert variant="success" role="status" data-testid="created-token">
      <AlertDescription>
        <p>{t('createdOnce', { name })}</p>
        <div className="flex min-w-0 gap-2">
          <Input
            ref={field}
            readOnly
            value={token}
            aria-label={t('newToken')}
            className="font-mono text-sm"
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button type="button" variant="outline" onClick={copy}>
            {t('copy')}
          </Button>
        </div>
        {copied === 'yes' && <p>{t('copied')}</p>}
        {copied === 'no' && <p>{t('copyDenied')}</p>}
      </AlertDescription>
    </Alert>
  );
}
