'use client';
import Link from 'next/link';
import { useMe } from '../lib/use-auth';
import { Notice } from './alert';
import { ProfileDetails } from './profile-details';
import { QueryState } from './ui/query-state';
import { WalletList } from './wallet-list';

export function AccountView() {
  const { signedIn, me } = useMe();
  if (!signedIn)
    return (
      <p>
        You are not signed in. <Link href="/sign-in">Sign in</Link> to see your account.
      </p>
    );
  // loading, or failed with "Try again" and no wallets claimed (components/ui/query-state.tsx)
  if (me.data === undefined) return <QueryState query={me}>{() => null}</QueryState>;
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
