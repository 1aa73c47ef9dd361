'use client';
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { VerifyEmail } from '../../components/verify-email';

function WithToken() {
  return <VerifyEmail token={useSearchParams().get('token')} />;
}

export default function VerifyEmailPage() {
  return (
    <div className="stack narrow">
      <h1>Verify your email</h1>
      <Suspense>
        <WithToken />
      </Suspense>
    </div>
  );
}
