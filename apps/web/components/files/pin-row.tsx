'use client';
import { useMutation } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import { shortCid } from '../../lib/files/format';
import { fileUrl, gatewayUrl, type MyPin, mayBeJson, useRefreshPins } from '../../lib/files/pins';
import { shareLinkOf } from '../../lib/files/share';
import { useIpfsGateway } from '../../lib/files/use-upload-limits';
import { useSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { Badge } from '../ui/badge';
import { Button, buttonVariants } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { CopyButton } from './copy-button';
import { FilePreview } from './file-preview';
import { PinDetails } from './pin-details';
import { useFileWords } from './use-file-words';

const VARIANT = { pinning: 'warning', pinned: 'success', failed: 'destructive' } as const;

/**
 * One pin: its name, full CID, size and status; copy CID, open (this API's gateway path, and the public
 * gateway the server names), share, details, preview, metadata (for files that may be JSON) and unpin.
 */
export function PinRow({ pin, onMetadata }: { pin: MyPin; onMetadata: (cid: string) => void }) {
  const t = useTranslations('files.pins');
  const words = useFileWords();
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const gateway = useIpfsGateway();
  const refreshPins = useRefreshPins();
  const detailsId = useId();
  const [details, setDetails] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const unpin = useMutation(trpc.storage.unpin.mutationOptions({ onSuccess: () => refreshPins() }));
  const { cid, status } = pin;
  const label = pin.name ?? pin.metadata.filename;
  const variant = VARIANT[status];
  const linkClass = buttonVariants({ variant: 'outline', size: 'sm' });
  return (
    <li
      className="grid min-w-0 gap-2 rounded-xl border bg-card p-4"
      data-testid="pin"
      data-cid={cid}
      data-status={status}
    >
      <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium" title={label ?? cid} data-testid="pin-name">
          {label ?? t('unnamed')}
        </span>
        <Badge variant={variant} data-testid="pin-status">
          {t(`statusOf.${status}`)}
        </Badge>
      </div>
      <code className="min-w-0 text-xs break-all text-muted-foreground" translate="no" data-testid="pin-cid">
        {cid}
      </code>
      <p className="m-0 text-sm text-muted-foreground" data-testid="pin-facts">
        {pin.metadata.size != null ? words.size(pin.metadata.size) : t('sizeUnknown')} ·{' '}
        {status === 'pinned' ? t('pinnedAt') : t('requestedAt')} <DateTime value={pin.createdAt} />
        {pin.failureReason && <> · {pin.failureReason}</>}
      </p>
      <div className="flex flex-wrap gap-2">
        <CopyButton
          text={cid}
          label={t('copyCid')}
          copiedLabel={t('copied')}
          failedLabel={t('copyFailed')}
          testId="copy-cid"
        />
        <a
          href={fileUrl(apiUrl, cid)}
          target="_blank"
          rel="noopener noreferrer"
          className={linkClass}
          data-testid="open-link"
        >
          <ExternalLink aria-hidden />
          {t('open')}
        </a>
        {gateway && (
          <a
            href={gatewayUrl(gateway, cid)}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass}
            data-testid="gateway-link"
          >
            <ExternalLink aria-hidden />
            {t('gateway')}
          </a>
        )}
        <CopyButton
          text={async () => (await shareLinkOf(pin, { apiUrl, token })).url}
          label={t('share')}
          copiedLabel={t('shareCopied')}
          failedLabel={t('shareFailed')}
          testId="share-link"
        />
        <Button
          variant="outline"
          size="sm"
          aria-expanded={details}
          aria-controls={detailsId}
          onClick={() => setDetails((v) => !v)}
        >
          {details ? t('hideDetails') : t('details')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={previewing}
          onClick={() => setPreviewing((v) => !v)}
        >
          {previewing ? t('hidePreview') : t('preview')}
        </Button>
        {mayBeJson(pin) && (
          <Button variant="outline" size="sm" onClick={() => onMetadata(cid)}>
            {t('metadata')}
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
          {t('unpin')}
        </Button>
      </div>
      {details && <PinDetails pin={pin} id={detailsId} />}
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
