'use client';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { Suspense } from 'react';
import { AuthPage } from '../../components/auth-page';
import { UndoEmailChange } from '../../components/email-change-links';

function WithToken() {
  return <UndoEmailChange token={useSearchParams().get('token')} />;
}

export default function UndoEmailChangePage() {
  const t = useTranslations('auth.emailChange');
  return (
    <AuthPage title={t('undoTitle')}>
      <Suspense>
        <WithToken />
      </Suspense>
    </AuthPage>
  );
}
