'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { ErrorAlert } from '../alert';
import { AvatarUpload } from './avatar-upload';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccount } from './delete-account';
import { PreferencesForm } from './preferences-form';
import { ProfileForm } from './profile-form';
import { SessionsList } from './sessions-list';
import './account.css';
import './controls.css';

/** The editable parts of the account page, under the read-only summary and wallets. */
export function AccountSettings() {
  const trpc = useTRPC();
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const user = useQuery({ ...trpc.users.get.queryOptions({ id: id ?? '' }), enabled: signedIn && !!id });
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && !!id,
  });
  if (!signedIn || !id) return null;
  if (user.isError) return <ErrorAlert error={readable(user.error)} />;
  if (prefs.isError) return <ErrorAlert error={readable(prefs.error)} />;
  if (!user.data || !prefs.data) return <p aria-live="polite">Loading your settings…</p>;
  return (
    <div className="stack account-settings">
      <p>
        <Link href={`/users/${id}`}>See your public profile</Link>
      </p>
      <AvatarUpload user={user.data} />
      {/* keyed by the stored record so the form starts from what was saved */}
      <ProfileForm key={`profile-${user.data.id}`} user={user.data} />
      <PreferencesForm key={`prefs-${id}`} userId={id} prefs={prefs.data} />
      <ChangePasswordForm />
      <SessionsList />
      <DeleteAccount userId={id} email={user.data.email} />
    </div>
  );
}
