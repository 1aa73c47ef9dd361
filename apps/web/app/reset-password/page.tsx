'use client';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { Suspense } from 'react';
import { AuthPage } from '../../components/auth-page';
import { ResetPasswordForm } from '../../components/reset-password-form';

function WithToken() {
  return <ResetPasswordForm token={useSearchParams().get('token')} />;
}

export default function ResetPasswordPage() {
  const t = useTranslations('auth.reset');
  return (
    <AuthPage title={t('title')}>
      <Suspense>
        <WithToken />
      </Suspense>
    </AuthPage>
  );
}
