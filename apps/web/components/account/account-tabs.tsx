'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { AccountView } from '../account-view';
import { QueryState } from '../ui/query-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';
import { AccountWebhooks } from '../webhooks/account-webhooks';
import { AccessTokens } from './access-tokens';
import { AccountActivity } from './account-activity';
import { ACCOUNT_TABS, type AccountTab } from './account-tab-names';
import { AvatarUpload } from './avatar-upload';
import { ChangeEmailForm } from './change-email-form';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccount } from './delete-account';
import { LinkedIdentities } from './linked-identities';
import { Passkeys } from './passkeys';
import { PreferencesForm } from './preferences-form';
import { ProfileForm } from './profile-form';
import { SessionsList } from './sessions-list';
import { TwoFactor } from './two-factor';

/**
 * The account page in six tabs: Profile (summary, wallets, picture, profile form), Preferences,
 * Security (password, email address, two-factor sign-in, sessions, deleting the account), Activity
 * (docs/accounts.md, "Account activity"), Access tokens and Webhooks (the account's storage webhooks,
 * docs/webhooks.md, "In the web app"). `?tab=` opens one directly.
 */
export function AccountTabs({ initial }: { initial: AccountTab }) {
  const t = useTranslations('account');
  const trpc = useTRPC();
  const [tab, setTab] = useState<AccountTab>(initial);
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const user = useQuery({ ...trpc.users.get.queryOptions({ id: id ?? '' }), enabled: signedIn && !!id });
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && !!id,
  });
  if (!signedIn || !id) return <AccountView />;

  return (
    <Tabs
      value={tab}
      onValueChange={(v) => {
        setTab(v as AccountTab);
        // the address names the tab (a reload or a shared link opens it) without a new navigation
        window.history.replaceState(null, '', v === 'profile' ? '/account' : `/account?tab=${v}`);
      }}
    >
      <TabsList aria-label={t('tabs.label')}>
        {ACCOUNT_TABS.map((k) => (
          <TabsTrigger key={k} value={k}>
            {t(`tabs.${k}`)}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="profile" className="grid gap-8">
        <AccountView />
        <QueryState query={user}>
          {(u) => (
            <>
              <p className="m-0">
                <Link href={`/users/${id}`}>{t('publicProfile')}</Link>
              </p>
              <AvatarUpload user={u} />
              {/* keyed by the stored record so the form starts from what was saved */}
              <ProfileForm key={`profile-${u.id}`} user={u} />
            </>
          )}
        </QueryState>
      </TabsContent>
      <TabsContent value="preferences">
        <QueryState query={prefs}>
          {(p) => <PreferencesForm key={`prefs-${id}`} userId={id} prefs={p} />}
        </QueryState>
      </TabsContent>
      <TabsContent value="security" className="grid gap-8">
        <ChangePasswordForm />
        {me.data && <ChangeEmailForm email={me.data.user.email} hasPassword={me.data.hasPassword} />}
        <TwoFactor />
        <Passkeys />
        <LinkedIdentities />
        <SessionsList />
        <QueryState query={user}>{(u) => <DeleteAccount userId={id} email={u.email} />}</QueryState>
      </TabsContent>
      <TabsContent value="activity">
        <AccountActivity />
      </TabsContent>
      <TabsContent value="tokens">
        <AccessTokens />
      </TabsContent>
      <TabsContent value="webhooks">
        <AccountWebhooks />
      </TabsContent>
    </Tabs>
  );
}
