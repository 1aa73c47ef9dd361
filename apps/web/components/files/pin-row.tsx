'use client';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { shortCid } from '../../lib/files/format';
import { type MyPin, useRefreshPins } from '../../lib/files/pins';
import { useTRPC } from '../../lib/trpc';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { FilePreview } from './file-preview';
import { useFileWords } from './use-file-words';

const VARIANT = { pinning: 'warning', pinned: 'success', failed: 'destructive' } as const;

/** One pin: its file name, size, CID, status, preview, metadata and unpin (after a confirmation). */
export function PinRow({ pin, onMetadata }: { pin: MyPin; onMetadata: (cid: string) => void }) {
  const t = useTranslations('files.pins');
  const words = useFileWords();
  const trpc = useTRPC();
  const refreshPins = useRefreshPins();
  const [previewing, setPreviewing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const unpin = useMutation(trpc.storage.unpin.mutationOptions({ onSuccess: () => refreshPins() }));
  const { cid, status } = pin;
  const label = pin.name ?? pin.metadata.filename;
  const variant = VARIANT[status];
  return (
    <li
      className="grid min-w-0 gap-2 rounded-xl border bg-card p-4"
      data-testid="pin"
      data-cid={cid}
      data-status={status}
    >
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium" title={label ?? cid}>
          {label ?? t('unnamed')}
        </span>
        <Badge variant={variant} data-testid="pin-status">
          {t(`statusOf.${status}`)}
        </Badge>
      </div>
      <code className="min-w-0 truncate text-xs text-muted-foreground" title={cid} translate="no">
        <span className="max-sm:hidden">{cid}</span>
        <span className="sm:hidden" aria-hidden="true">
          {shortCid(cid)}
        </span>
      </code>
      <p className="m-0 text-sm text-muted-foreground">
        {pin.metadata.size != null && <>{words.size(pin.metadata.size)} · </>}
        {status === 'pinned' ? t('pinnedAt') : t('requestedAt')} <DateTime value={pin.createdAt} />
        {pin.failureReason && <> · {pin.failureReason}</>}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-expanded={previewing}
          onClick={() => setPreviewing((v) => !v)}
        >
          {previewing ? t('hidePreview') : t('preview')}
        </Button>
        <Button variant="outline" size="sm" onClick={() => onMetadata(cid)}>
          {t('metadata')}
        </Button>
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
          {t('unpin')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        destructive
        title={t('unpinTitle', { name: label ?? shortCid(cid) })}
        description={t('unpinWhat')}
        confirmLabel={t('unpin')}
        onConfirm={() => unpin.mutateAsync({ cid })}
      />
      {previewing && <FilePreview cid={cid} />}
    </li>
  );
}
