'use client';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { Suspense } from 'react';
import { AuthPage } from '../../components/auth-page';
import { ConfirmEmailChange } from '../../components/email-change-links';

function WithToken() {
  return <ConfirmEmailChange token={useSearchParams().get('token')} />;
}

export default function ConfirmEmailPage() {
  const t = useTranslations('auth.emailChange');
  return (
    <AuthPage title={t('confirmTitle')}>
      <Suspense>
        <WithToken />
      </Suspense>
    </AuthPage>
  );
}
