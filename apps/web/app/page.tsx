'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '../lib/trpc';
import { useMe } from '../lib/use-auth';

export default function Home() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  const { signedIn } = useMe();
  return (
    <div className="stack">
      <h1>Plenum</h1>
      <p>DAO governance, files on IPFS and membership, in one place.</p>
      <section aria-live="polite" data-testid="api-status">
        {info.isPending && <p>Connecting to the API…</p>}
        {info.isError && <p role="alert">The API is unreachable: {info.error.message}</p>}
        {info.data && (
          <p className="muted">
            Connected to {info.data.name} API {info.data.version}
          </p>
        )}
      </section>
      <p>
        {signedIn ? (
          <Link href="/account">Go to your account</Link>
        ) : (
          <>
            <Link href="/sign-in">Sign in</Link> or <Link href="/register">create an account</Link>.
          </>
        )}
      </p>
    </div>
  );
}
