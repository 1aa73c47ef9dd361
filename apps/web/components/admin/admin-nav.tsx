'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';

const LINKS = [
  { href: '/admin', key: 'overview' },
  { href: '/admin/users', key: 'users' },
  { href: '/admin/daos', key: 'daos' },
  { href: '/admin/audit', key: 'audit' },
] as const;

/** The admin sections as a row of tab-like links; links that do not fit wrap onto a second row, whole. */
export function AdminNav() {
  const t = useTranslations('admin.nav');
  const path = usePathname();
  return (
    <nav aria-label={t('label')} className="max-w-full border-b">
      <ul className="m-0 flex list-none flex-wrap gap-x-1 p-0">
        {LINKS.map((l) => (
          <li key={l.href} className="shrink-0">
            <Link
              href={l.href}
              aria-current={path === l.href ? 'page' : undefined}
              className={cn(
                '-mb-px inline-block border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground no-underline hover:text-foreground',
                'aria-[current=page]:border-primary aria-[current=page]:text-foreground',
              )}
            >
              {t(l.key)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
