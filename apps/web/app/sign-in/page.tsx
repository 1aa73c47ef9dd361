'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { AuthPage } from '../../components/auth-page';
import { type MfaChallenge, MfaStep } from '../../components/mfa-step';
import { OidcNotice } from '../../components/oidc-notice';
import { OidcSignIn } from '../../components/oidc-sign-in';
import { PasskeySignIn } from '../../components/passkey-sign-in';
import { SignInForm } from '../../components/sign-in-form';
import { SiweSignIn } from '../../components/siwe-sign-in';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { afterSignIn } from '../../lib/after-sign-in';
import { useMe } from '../../lib/use-auth';

export default function SignInPage() {
  const t = useTranslations('auth.signIn');
  const router = useRouter();
  const { signedIn, me } = useMe();
  const done = () => router.push(afterSignIn(window.location.search));
  // a first factor proven, the second awaited (docs/accounts.md, "Two-factor sign-in")
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  // the address as the browser has it (an OpenID sign-in's outcome, `?next=`), read once mounted
  const [search, setSearch] = useState('');
  useEffect(() => {
    setSearch(window.location.search);
    // an OpenID sign-in of an account with a second factor: its mfaToken comes in the fragment
    const mfaToken = new URLSearchParams(window.location.hash.slice(1)).get('mfa');
    if (!mfaToken) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    setChallenge({ mfaRequired: true, mfaToken, methods: ['totp', 'recovery_code'] });
  }, []);
  return (
    <AuthPage
      wide
      title={t('title')}
      lead={t('lead')}
      footer={
        <>
          <p>
            {t('newHere')} <Link href="/register">{t('createAccount')}</Link>
          </p>
          <p>
            {t('noMail')} <Link href="/resend-verification">{t('sendAgain')}</Link>
          </p>
        </>
      }
    >
      {signedIn && me.data && (
        <Alert variant="info" role="status">
          <AlertDescription>
            <p>
              {t('signedInAs', { email: me.data.user.email })} <Link href="/account">{t('goToAccount')}</Link>
              , {t('orSomeoneElse')}
            </p>
          </AlertDescription>
        </Alert>
      )}
      <OidcNotice search={search} />
      {challenge ? (
        <div className="mx-auto grid w-full max-w-md">
          <MfaStep challenge={challenge} onSignedIn={done} onRestart={() => setChallenge(null)} />
        </div>
      ) : (
        <div className="grid gap-4">
          <div className="grid gap-4 md:grid-cols-2">
            <SignInForm onSignedIn={done} onChallenge={setChallenge} />
            <SiweSignIn onSignedIn={done} onChallenge={setChallenge} />
          </div>
          <div className="mx-auto grid w-full max-w-md">
            <PasskeySignIn onSignedIn={done} />
            <OidcSignIn search={search} />
          </div>
        </div>
      )}
    </AuthPage>
  );
}
