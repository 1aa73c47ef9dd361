'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { SignInForm } from '../../components/sign-in-form';
import { SiweSignIn } from '../../components/siwe-sign-in';

export default function SignInPage() {
  const router = useRouter();
  const done = () => router.push('/account');
  return (
    <div className="stack">
      <h1>Sign in</h1>
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
