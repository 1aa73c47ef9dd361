'use client';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { Suspense } from 'react';
import { AuthPage } from '../../components/auth-page';
import { VerifyEmail } from '../../components/verify-email';

function WithToken() {
  return <VerifyEmail token={useSearchParams().get('token')} />;
}

export default function VerifyEmailPage() {
  const t = useTranslations('auth.verify');
  return (
    <AuthPage title={t('title')}>
      <Suspense>
        <WithToken />
      </Suspense>
    </AuthPage>
  );
}
