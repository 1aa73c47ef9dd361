'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Notice } from '../../components/alert';
import { SignInForm } from '../../components/sign-in-form';
import { SiweSignIn } from '../../components/siwe-sign-in';
import { useMe } from '../../lib/use-auth';

export default function SignInPage() {
  const router = useRouter();
  const { signedIn, me } = useMe();
  const done = () => router.push('/account');
  return (
    <div className="stack">
      <h1>Sign in</h1>
      {signedIn && me.data && (
        <Notice>
          You are signed in as {me.data.user.email}. <Link href="/account">Go to your account</Link>, or sign
          in as someone else below.
        </Notice>
      )}
      <div className="columns">
        <SignInForm onSignedIn={done} />
        <SiweSignIn onSignedIn={done} />
      </div>
      <p>
        New here? <Link href="/register">Create an account</Link>. Didn’t get the verification email?{' '}
        <Link href="/resend-verification">Send it again</Link>.
      </p>
    </div>
  );
}
