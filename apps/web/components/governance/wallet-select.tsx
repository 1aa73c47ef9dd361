import Link from 'next/link';
import { SelectField } from './controls';

/** Chooses which of my wallets an action is for (the API acts for an address, never for a user). */
export function WalletSelect({
  label,
  name,
  wallets,
  errors,
  hint,
  defaultValue,
}: {
  label: string;
  name: string;
  wallets: string[];
  errors?: string[] | undefined;
  hint?: string;
  defaultValue?: string | undefined;
}) {
  if (wallets.length === 0) {
    return (
      <p className="alert alert-info" role="status">
        This needs a linked wallet. <Link href="/account">Link a wallet in your account</Link> first.
      </p>
    );
  }
  return (
    <SelectField
      label={label}
      name={name}
      errors={errors}
      hint={hint}
      defaultValue={defaultValue ?? wallets[0]}
    >
      {wallets.map((w) => (
        <option key={w} value={w}>
          {w}
        </option>
      ))}
    </SelectField>
  );
}

/** Sign-in and verification come before any governance write; says which one is missing. */
export function NeedsAccount({
  signedIn,
  verified,
  what,
}: {
  signedIn: boolean;
  verified: boolean;
  what: string;
}) {
  if (!signedIn)
    return (
      <p className="alert alert-info" role="status">
        <Link href="/sign-in">Sign in</Link> to {what}.
      </p>
    );
  if (!verified)
    return (
      <p className="alert alert-info" role="status">
        Verify your email address to {what}.{' '}
        <Link href="/resend-verification">Resend the verification mail</Link>.
      </p>
    );
  return null;
}
