'use client';
import Link from 'next/link';
import { toDisplayError } from '../lib/errors';
import { useMe } from '../lib/use-auth';
import { ErrorAlert, Notice } from './alert';
import { ProfileDetails } from './profile-details';
import { WalletList } from './wallet-list';

export function AccountView() {
  const { signedIn, me } = useMe();
  if (!signedIn)
    return (
      <p>
        You are not signed in. <Link href="/sign-in">Sign in</Link> to see your account.
      </p>
    );
  if (me.isPending) return <p aria-live="polite">Loading your account…</p>;
  if (me.isError) return <ErrorAlert error={toDisplayError(me.error)} />;
  const { user, wallets } = me.data;
  return (
    <div className="stack">
      {!user.emailVerified && (
        <Notice testId="unverified">
          Your email address is not verified yet: check your inbox for the link, or{' '}
          <Link href="/resend-verification">send it again</Link>.
        </Notice>
      )}
      <section aria-labelledby="profile-heading" className="stack">
        <h2 id="profile-heading">Profile</h2>
        <ProfileDetails user={user} />
      </section>
      <WalletList wallets={wallets} />
    </div>
  );
}
