'use client';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { Suspense } from 'react';
import { AuthPage } from '../../components/auth-page';
import { RegisterForm } from '../../components/register-form';
import { useWalletAddress } from '../../lib/use-injected-wallet';
import { useMounted } from '../../lib/use-mounted';

function Register() {
  const linkWallet = useSearchParams().get('linkWallet') === '1';
  const mounted = useMounted();
  const walletAddress = useWalletAddress();
  return <RegisterForm linkWallet={linkWallet} {...(mounted && walletAddress ? { walletAddress } : {})} />;
}

export default function RegisterPage() {
  const t = useTranslations('auth.register');
  return (
    <AuthPage
      title={t('title')}
      lead={t('lead')}
      footer={
        <p>
          {t('already')} <Link href="/sign-in">{t('signIn')}</Link>
        </p>
      }
    >
      <Suspense>
        <Register />
      </Suspense>
    </AuthPage>
  );
}
