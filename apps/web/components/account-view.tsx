'use client';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { toDisplayError } from '../lib/errors';
import { useMe } from '../lib/use-auth';
import { ErrorAlert, Notice } from './alert';
import { ProfileDetails } from './profile-details';
import { WalletList } from './wallet-list';

export function AccountView() {
  const t = useTranslations('account.summary');
  const { signedIn, me } = useMe();
  if (!signedIn) return <p>{t.rich('signedOut', { link: (text) => <Link href="/sign-in">{text}</Link> })}</p>;
  if (me.isPending) return <p aria-live="polite">{t('loading')}</p>;
  if (me.isError) return <ErrorAlert error={toDisplayError(me.error)} />;
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
