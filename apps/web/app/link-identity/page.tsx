'use client';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { Suspense } from 'react';
import { AuthPage } from '../../components/auth-page';
import { ConfirmIdentityLink } from '../../components/confirm-identity-link';

function WithToken() {
  return <ConfirmIdentityLink token={useSearchParams().get('token')} />;
}

export default function LinkIdentityPage() {
  const t = useTranslations('auth.oidc.link');
  return (
    <AuthPage title={t('title')}>
      <Suspense>
        <WithToken />
      </Suspense>
    </AuthPage>
  );
}
