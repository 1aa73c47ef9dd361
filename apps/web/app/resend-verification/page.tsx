'use client';
import { useTranslations } from 'next-intl';
import { AuthPage } from '../../components/auth-page';
import { ResendForm } from '../../components/resend-form';
import { useMe } from '../../lib/use-auth';

export default function ResendVerificationPage() {
  const t = useTranslations('auth.resend');
  const { me } = useMe();
  return (
    <AuthPage title={t('title')} lead={t('lead')}>
      <ResendForm
        key={me.data?.user.email ?? ''}
        {...(me.data ? { defaultEmail: me.data.user.email } : {})}
      />
    </AuthPage>
  );
}
