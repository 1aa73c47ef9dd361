'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { useApiUrl } from '../lib/api-url';
import { useTRPC } from '../lib/trpc';
import { useMe, useSignOut } from '../lib/use-auth';

/** Header navigation around every page. */
export function Shell({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const router = useRouter();
  const info = useQuery(trpc.system.info.queryOptions());
  const { signedIn, me } = useMe();
  const signOut = useSignOut();
  const devOutbox = info.data && !info.data.emailProviderConfigured;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link href="/" className="brand">
          Plenum
        </Link>
        <nav aria-label="Main">
          <ul>
            {signedIn && (
              <li>
                <Link href="/dashboard">Dashboard</Link>
              </li>
            )}
            <li>
              <Link href="/daos">DAOs</Link>
            </li>
            {signedIn && (
              <li>
                <Link href="/files">Files</Link>
              </li>
            )}
            {signedIn && me.data?.user.role === 'admin' && (
              <li>
                <Link href="/admin">Admin</Link>
              </li>
            )}
            {signedIn ? (
              <li>
                <Link href="/account">{me.data ? me.data.user.firstName : 'Account'}</Link>
              </li>
            ) : (
              <>
                <li>
                  <Link href="/sign-in">Sign in</Link>
                </li>
                <li>
                  <Link href="/register">Register</Link>
                </li>
              </>
            )}
            {devOutbox && (
              <li>
                <Link href="/dev/outbox">Outbox</Link>
              </li>
            )}
            <li>
              <a href={`${apiUrl}/api/docs`} target="_blank" rel="noreferrer">
                API docs
              </a>
            </li>
            {signedIn && (
              <li>
                <button
                  type="button"
                  className="link-button"
                  disabled={signOut.isPending}
                  onClick={() => signOut.mutate(undefined, { onSettled: () => router.push('/sign-in') })}
                >
                  Sign out
                </button>
              </li>
            )}
          </ul>
        </nav>
      </header>
      <main id="main">{children}</main>
    </>
  );
}
