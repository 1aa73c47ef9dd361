'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/admin', label: 'Overview' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/daos', label: 'DAO approvals' },
  { href: '/admin/audit', label: 'Audit log' },
];

export function AdminNav() {
  const path = usePathname();
  return (
    <nav aria-label="Administration" className="admin-nav">
      <ul>
        {LINKS.map((l) => (
          <li key={l.href}>
            <Link href={l.href} aria-current={path === l.href ? 'page' : undefined}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
