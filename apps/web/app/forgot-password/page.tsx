import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { AuthPage } from '../../components/auth-page';
import { ForgotPasswordForm } from '../../components/forgot-password-form';

export default async function ForgotPasswordPage() {
  const t = await getTranslations('auth.forgot');
  return (
    <AuthPage
      title={t('title')}
      lead={t('lead')}
      footer={
        <p>
          {t('remembered')} <Link href="/sign-in">{t('signIn')}</Link>
        </p>
      }
    >
      <ForgotPasswordForm />
    </AuthPage>
  );
}
