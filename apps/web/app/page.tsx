'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../lib/trpc';

export default function Home() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  return (
    <main>
      <h1>Plenum</h1>
      <p>DAO governance, files on IPFS and membership, in one place.</p>
      <section aria-live="polite" data-testid="api-status">
        {info.isPending && <p>Connecting to the API…</p>}
        {info.isError && <p role="alert">The API is unreachable: {info.error.message}</p>}
        {info.data && (
          <p>
            Connected to {info.data.name} API {info.data.version}
          </p>
        )}
      </section>
    </main>
  );
}
