'use client';
import { registerInput } from '@plenum/validators';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { formValues, validate } from '../lib/form';
import { useRegister } from '../lib/use-register';
import { ErrorAlert, Notice } from './alert';
import { Field } from './field';
import { PasswordHints } from './password-hints';
import { TermsCheckbox } from './terms-checkbox';

const registerForm = registerInput.refine((v) => v.acceptedTerms, {
  path: ['acceptedTerms'],
  message: 'Please accept the terms to create an account',
});

export function RegisterForm({ linkWallet, walletAddress }: { linkWallet: boolean; walletAddress?: string }) {
  const { state, submit, fail } = useRegister(linkWallet);
  const [password, setPassword] = useState('');
  const error = state.step === 'failed' ? state.error : null;
  const fields = error?.fields ?? {};

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const { organizationName, acceptedTerms, ...rest } = formValues(e.currentTarget);
    const checked = validate(registerForm, {
      ...rest,
      ...(organizationName?.trim() ? { organizationName } : {}),
      acceptedTerms: acceptedTerms === 'on',
    });
    if (!checked.ok) return fail(checked.error);
    void submit(checked.data);
  }

  if (state.step === 'registered')
    return (
      <Notice testId="registered">
        <p>
          Account created. We sent a verification link to <strong>{state.email}</strong>: open it to activate
          your account.
        </p>
        <p>
          <Link href="/sign-in">Sign in</Link> · <Link href="/resend-verification">Resend the email</Link>
        </p>
      </Notice>
    );
  if (state.step === 'linked')
    return (
      <Notice testId="registered-linked">
        <p>
          Account created, you are signed in, and the wallet <code className="address">{state.address}</code>{' '}
          is linked. Check your inbox to verify your email address.
        </p>
        <p>
          <Link href="/account">Go to your account</Link>
        </p>
      </Notice>
    );

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-label="Register">
      {linkWallet && (
        <Notice testId="link-on-register">
          After registering, your wallet{' '}
          {walletAddress ? <code className="address">{walletAddress}</code> : null} is asked to sign once more
          to link it to the new account.
        </Notice>
      )}
      <ErrorAlert error={error}>
        {state.step === 'failed' && state.signedIn && (
          <p>
            Your account exists and you are signed in: link the wallet from{' '}
            <Link href="/account">your account</Link>.
          </p>
        )}
      </ErrorAlert>
      <Field label="Email" name="email" type="email" autoComplete="email" required errors={fields.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        errors={fields.password}
        hint={<PasswordHints password={password} />}
      />
      <div className="row">
        <Field
          label="First name"
          name="firstName"
          autoComplete="given-name"
          required
          errors={fields.firstName}
        />
        <Field
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          required
          errors={fields.lastName}
        />
      </div>
      <Field
        label="Organization (optional)"
        name="organizationName"
        autoComplete="organization"
        errors={fields.organizationName}
      />
      <TermsCheckbox errors={fields.acceptedTerms} />
      <button type="submit" disabled={state.step === 'busy'}>
        {state.step === 'busy' ? state.what : 'Create account'}
      </button>
    </form>
  );
}
