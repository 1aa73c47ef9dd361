'use client';
import { ExternalLink } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { isCurrent, type NavLink } from './use-nav';

/** The section links, in a row (header) or a column (mobile menu); the current section is marked. */
export function NavLinks({
  links,
  vertical = false,
  onNavigate,
}: {
  links: NavLink[];
  vertical?: boolean;
  onNavigate?: () => void;
}) {
  const t = useTranslations('shell.nav');
  const pathname = usePathname();
  const base = cn(
    'inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground no-underline transition-colors hover:bg-accent hover:text-foreground',
    vertical && 'w-full text-base',
  );
  return (
    <ul className={cn('m-0 flex list-none p-0', vertical ? 'flex-col gap-1' : 'items-center gap-1')}>
      {links.map((link) => {
        const current = !link.external && isCurrent(pathname, link.href);
        return (
          <li key={link.href}>
            {link.external ? (
              <a href={link.href} target="_blank" rel="noreferrer" className={base} onClick={onNavigate}>
                {link.label}
                <ExternalLink className="size-3.5" aria-hidden />
                <span className="sr-only">{t('opensNewTab')}</span>
              </a>
            ) : (
              <Link
                href={link.href}
                aria-current={current ? 'page' : undefined}
                className={cn(base, current && 'bg-accent text-foreground')}
                onClick={onNavigate}
              >
                {link.label}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
