'use client';
import { ChevronDown, LogOut, UserRound } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useMe, useSignOut } from '../../lib/use-auth';
import { Button } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';

/** Signed in: a menu under the user's first name (account, sign out). Signed out: sign in / register. */
export function AccountMenu() {
  const t = useTranslations('shell.account');
  const router = useRouter();
  const { signedIn, me } = useMe();
  const signOut = useSignOut();

  if (!signedIn)
    return (
      <div className="flex items-center gap-1 max-md:hidden">
        <Button asChild variant="ghost" size="sm">
          <Link href="/sign-in">{t('signIn')}</Link>
        </Button>
        <Button asChild size="sm">
          <Link href="/register">{t('register')}</Link>
        </Button>
      </div>
    );

  const user = me.data?.user;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" data-testid="account-menu" className="max-w-40">
          <UserRound aria-hidden />
          {/* named by its content, so the words shown are part of the name ("Account menu: Ada") */}
          <span className="sr-only">{t('menu')}: </span>
          <span className="truncate max-sm:sr-only">{user?.firstName ?? t('account')}</span>
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {user && (
          <DropdownMenuLabel className="truncate" title={user.email}>
            {t('signedInAs', { email: user.email })}
          </DropdownMenuLabel>
        )}
        <DropdownMenuItem asChild>
          <Link href="/account">
            <UserRound aria-hidden />
            {t('account')}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={signOut.isPending}
          onSelect={() => signOut.mutate(undefined, { onSettled: () => router.push('/sign-in') })}
        >
          <LogOut aria-hidden />
          {signOut.isPending ? t('signingOut') : t('signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
