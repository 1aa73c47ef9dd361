'use client';
import Link from 'next/link';
import { useState } from 'react';
import { toDisplayError } from '../../lib/errors';
import { useMe } from '../../lib/use-auth';
import { ErrorAlert, Notice } from '../alert';
import { AccessTokens } from './access-tokens';
import { MetadataView } from './metadata-view';
import { PinByCid } from './pin-by-cid';
import { PinList } from './pin-list';
import { UploadZone } from './upload-zone';
import '../account/controls.css';
import './files.css';

export function FilesView() {
  const { signedIn, me } = useMe();
  const [metadataCid, setMetadataCid] = useState<string | null>(null);
  if (!signedIn)
    return (
      <p>
        <Link href="/sign-in">Sign in</Link> to upload and pin files.
      </p>
    );
  if (me.isPending) return <p aria-live="polite">Loading…</p>;
  if (me.isError) return <ErrorAlert error={toDisplayError(me.error)} />;
  const { user, wallets } = me.data;

  return (
    <div className="stack files">
      {wallets.length === 0 && (
        <Notice testId="wallet-required">
          Files are pinned for a wallet address: <Link href="/account">link a wallet</Link> before uploading
          or pinning.
        </Notice>
      )}
      {user.status === 'pending_verification' && (
        <Notice testId="verify-first">
          Verify your email address before storing files (
          <Link href="/resend-verification">resend the link</Link>
          ).
        </Notice>
      )}
      <UploadZone />
      <PinByCid />
      <PinList
        onMetadata={(cid) => {
          setMetadataCid(cid);
          document.getElementById('metadata')?.scrollIntoView({ behavior: 'smooth' });
        }}
      />
      <MetadataView cid={metadataCid} />
      <AccessTokens />
    </div>
  );
}
