'use client';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useApiUrl } from '../../lib/api-url';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';

export interface NavLink {
  href: string;
  label: string;
  external?: boolean;
}

/** The app's sections for the current visitor: the same list in the header and the mobile menu. */
export function useNavLinks(): NavLink[] {
  const t = useTranslations('shell.nav');
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const info = useQuery(trpc.system.info.queryOptions());
  const { signedIn, me } = useMe();
  const links: (NavLink | false)[] = [
    signedIn && { href: '/dashboard', label: t('dashboard') },
    { href: '/daos', label: t('daos') },
    signedIn && { href: '/files', label: t('files') },
    signedIn && me.data?.user.role === 'admin' && { href: '/admin', label: t('admin') },
    // development only: with no email provider, mails wait in the API's outbox, which answers only a local
    // trial or an admin (docs/operations.md, "Email"): linked only where it answers this visitor
    info.data?.outboxAvailable === true && { href: '/dev/outbox', label: t('outbox') },
    { href: `${apiUrl}/api/docs`, label: t('apiDocs'), external: true },
  ];
  return links.filter((l): l is NavLink => l !== false);
}

/** /daos/123 belongs to "DAOs"; / only to itself. */
export const isCurrent = (pathname: string, href: string) =>
  href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
