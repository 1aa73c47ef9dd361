'use client';
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { ResetPasswordForm } from '../../components/reset-password-form';

function WithToken() {
  return <ResetPasswordForm token={useSearchParams().get('token')} />;
}

export default function ResetPasswordPage() {
  return (
    <div className="stack narrow">
      <h1>Choose a new password</h1>
      <Suspense>
        <WithToken />
      </Suspense>
    </div>
  );
}
