'use client';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useMe } from '../../lib/use-auth';
import { Alert, AlertDescription } from '../ui/alert';
import { QueryState } from '../ui/query-state';
import { type MetadataRequest, MetadataView } from './metadata-view';
import { PinByCid } from './pin-by-cid';
import { PinList } from './pin-list';
import { UploadZone } from './upload-zone';
import { UsageBar } from './usage-bar';

export function FilesView() {
  const t = useTranslations('files');
  const { signedIn, me } = useMe();
  const [metadata, setMetadata] = useState<MetadataRequest | null>(null);
  if (!signedIn)
    return <p>{t.rich('signIn', { link: (chunks) => <Link href="/sign-in">{chunks}</Link> })}</p>;
  return (
    <QueryState query={me}>
      {({ user, wallets }) => (
        <div className="grid min-w-0 gap-8">
          {wallets.length === 0 && (
            <Alert variant="info" role="status" data-testid="wallet-required">
              <AlertDescription>
                <p>{t.rich('walletRequired', { link: (chunks) => <Link href="/account">{chunks}</Link> })}</p>
              </AlertDescription>
            </Alert>
          )}
          {user.status === 'pending_verification' && (
            <Alert variant="info" role="status" data-testid="verify-first">
              <AlertDescription>
                <p>
                  {t.rich('verifyFirst', {
                    link: (chunks) => <Link href="/resend-verification">{chunks}</Link>,
                  })}
                </p>
              </AlertDescription>
            </Alert>
          )}
          <UsageBar />
          <UploadZone />
          <PinList
            onMetadata={(cid) => {
              setMetadata({ cid, at: Date.now() });
              document.getElementById('metadata')?.scrollIntoView({ behavior: 'smooth' });
            }}
          />
          <PinByCid />
          <MetadataView request={metadata} />
          <p className="m-0 text-sm text-muted-foreground">
            {t.rich('tokensMoved', { link: (chunks) => <Link href="/account?tab=tokens">{chunks}</Link> })}
          </p>
        </div>
      )}
    </QueryState>
  );
}
