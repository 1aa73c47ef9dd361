'use client';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useMe } from '../lib/use-auth';
import { ProfileDetails } from './profile-details';
import { Notice } from './ui/alert';
import { QueryState } from './ui/query-state';
import { WalletList } from './wallet-list';

export function AccountView() {
  const t = useTranslations('account.summary');
  const { signedIn, me } = useMe();
  if (!signedIn) return <p>{t.rich('signedOut', { link: (text) => <Link href="/sign-in">{text}</Link> })}</p>;
  // loading, or failed with "Try again" and no wallets claimed (components/ui/query-state.tsx)
  if (me.data === undefined) return <QueryState query={me}>{() => null}</QueryState>;
  const { user, wallets } = me.data;
  return (
    <div className="stack">
      {!user.emailVerified && (
        <Notice testId="unverified">
          {t.rich('unverified', { link: (text) => <Link href="/resend-verification">{text}</Link> })}
        </Notice>
      )}
      <section aria-labelledby="profile-heading" className="stack">
        <h2 id="profile-heading">{t('title')}</h2>
        <ProfileDetails user={user} />
      </section>
      <WalletList wallets={wallets} />
    </div>
  );
}
