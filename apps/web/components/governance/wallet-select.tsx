import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { ChangeEvent } from 'react';
import { Notice } from '../ui/alert';
import { SelectField } from './controls';

/** Chooses which of my wallets an action is for (the API acts for an address, never for a user). */
export function WalletSelect({
  label,
  name,
  wallets,
  errors,
  hint,
  defaultValue,
  value,
  onChange,
}: {
  label: string;
  name: string;
  wallets: string[];
  errors?: string[] | undefined;
  hint?: string;
  defaultValue?: string | undefined;
  /** controlled (react-hook-form) instead of read from the submitted form */
  value?: string;
  onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
}) {
  const t = useTranslations('governance.account');
  if (wallets.length === 0) {
    return <Notice>{t.rich('needsWallet', { link: (text) => <Link href="/account">{text}</Link> })}</Notice>;
  }
  return (
    <SelectField
      label={label}
      name={name}
      errors={errors}
      hint={hint}
      {...(onChange ? { value, onChange } : { defaultValue: defaultValue ?? wallets[0] })}
    >
      {wallets.map((w) => (
        <option key={w} value={w}>
          {w}
        </option>
      ))}
    </SelectField>
  );
}

/** What a governance write is for, in NeedsAccount's sentences. */
export type AccountPurpose = 'propose' | 'createDao' | 'dashboard';

/** Sign-in and verification come before any governance write; says which one is missing. */
export function NeedsAccount({
  signedIn,
  verified,
  what,
}: {
  signedIn: boolean;
  verified: boolean;
  what: AccountPurpose;
}) {
  const t = useTranslations('governance.account');
  if (!signedIn)
    return (
      <Notice>{t.rich(`signIn.${what}`, { link: (text) => <Link href="/sign-in">{text}</Link> })}</Notice>
    );
  if (!verified)
    return (
      <Notice>
        {t(`verify.${what}`)}{' '}
        {t.rich('resend', { link: (text) => <Link href="/resend-verification">{text}</Link> })}
      </Notice>
    );
  return null;
}
