'use client';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { useConnection } from 'wagmi';
import { RegisterForm } from '../../components/register-form';
import { useMounted } from '../../lib/use-mounted';

function Register() {
  const linkWallet = useSearchParams().get('linkWallet') === '1';
  const mounted = useMounted();
  const connection = useConnection();
  return (
    <RegisterForm
      linkWallet={linkWallet}
      {...(mounted && connection.address ? { walletAddress: connection.address } : {})}
    />
  );
}

export default function RegisterPage() {
  return (
    <div className="stack narrow">
      <h1>Create an account</h1>
      <Suspense>
        <Register />
      </Suspense>
      <p>
        Already registered? <Link href="/sign-in">Sign in</Link>.
      </p>
    </div>
  );
}
