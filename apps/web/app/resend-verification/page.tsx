'use client';
import { ResendForm } from '../../components/resend-form';
import { useMe } from '../../lib/use-auth';

export default function ResendVerificationPage() {
  const { me } = useMe();
  return (
    <div className="stack narrow">
      <h1>Resend the verification email</h1>
      <p>
        Enter the address you registered with: if it is registered and not verified yet, a new link is on its
        way.
      </p>
      <ResendForm
        key={me.data?.user.email ?? ''}
        {...(me.data ? { defaultEmail: me.data.user.email } : {})}
      />
    </div>
  );
}
