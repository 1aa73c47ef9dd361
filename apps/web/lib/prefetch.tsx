import type { AppRouter } from '@plenum/api';
import { dehydrate, HydrationBoundary, type QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { cookies, headers } from 'next/headers';
import type { ReactNode } from 'react';
import { type MarkdownSources, RenderedMarkdown } from '../components/governance/rendered-markdown';
import { isHexAddress, MAX_ADDRESSES_PER_REQUEST } from './profiles/batcher';
import { makeQueryClient } from './query-client';

/**
 * Server-side reads for a public page (docs/architecture.md, "How pages get their data"): the page's
 * public queries are read from the API over HTTP while the page renders, and handed to the browser's
 * QueryClient with the HTML, so the first HTML carries the data and the client hook finds it cached.
 * Only public, anonymous reads: the session lives in the browser (lib/session.ts), so a signed-in
 * visitor's own view is read again by the client after hydration.
 */

/**
 * A prefetch that has not answered by then is left to the browser: a slow API never holds a page.
 * `PLENUM_WEB_PREFETCH_TIMEOUT` (ms) changes it; the browser tests raise it, so a busy machine's slow
 * answer is waited for instead of quietly leaving the page without its data.
 */
const prefetchTimeoutMs = () => {
  const ms = Number(process.env.PLENUM_WEB_PREFETCH_TIMEOUT);
  return Number.isFinite(ms) && ms > 0 ? ms : 2_000;
};

/** `PLENUM_WEB_SSR=0` renders every page without data, as the browser-only app did (the bench's baseline) */
export const ssrEnabled = () => process.env.PLENUM_WEB_SSR !== '0';

/**
 * The cookie `plenum-ssr=0` does the same for one browser: the browser tests of what a page does when its
 * own reads fail (docs/operations.md, "The web app during an API outage") use it; it changes nothing else.
 */
export const SSR_OFF_COOKIE = 'plenum-ssr';

export type ServerReads = { trpc: TRPCOptionsProxy<AppRouter>; queryClient: QueryClient };

function serverQueryClient() {
  const client = makeQueryClient();
  // one attempt: a failed read is not retried here but in the browser, which shows the outage and recovers
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
  return client;
}

/**
 * Run `load` (prefetches into a fresh per-request QueryClient) and render `children` with what answered.
 * A failed, refused or slow read is simply not handed over: the page renders as without it (placeholder,
 * then the browser's own read), never an error page.
 */
export async function Prefetch({
  load,
  markdown,
  children,
}: {
  load: (reads: ServerReads) => Promise<unknown>;
  /** the descriptions among what was read, rendered here so the browser needs no markdown renderer for them */
  markdown?: (reads: ServerReads) => MarkdownSources;
  children: ReactNode;
}) {
  if (!ssrEnabled()) return children;
  const [jar, head] = await Promise.all([cookies(), headers()]);
  if (jar.get(SSR_OFF_COOKIE)?.value === '0') return children;
  const apiUrl = process.env.API_URL ?? 'http://localhost:4000';
  // the visitor's address, for the API's per-IP budget when it trusts this proxy (TRUST_PROXY)
  const forwarded = head.get('x-forwarded-for');
  const queryClient = serverQueryClient();
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${apiUrl}/trpc`,
        maxItems: 10,
        headers: () => (forwarded ? { 'x-forwarded-for': forwarded } : {}),
        fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(prefetchTimeoutMs()) }),
      }),
    ],
  });
  const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
  try {
    await load({ trpc, queryClient });
  } catch {
    // prefetchQuery never throws; a chained read (fetchQuery) that failed leaves the rest to the browser
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {markdown ? (
        <RenderedMarkdown {...markdown({ trpc, queryClient })}>{children}</RenderedMarkdown>
      ) : (
        children
      )}
    </HydrationBoundary>
  );
}

/** fetchQuery's answer, or undefined when it failed (for reads that need an earlier answer) */
export const settled = <T,>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

/**
 * The names behind addresses shown at once (lib/profiles/use-address-profile.ts), under the keys that
 * hook reads: a name that arrived after the page would push the address beside it aside.
 */
export async function prefetchNames({ trpc, queryClient }: ServerReads, addresses: string[]) {
  const wanted = [...new Set(addresses.filter(isHexAddress).map((a) => a.toLowerCase()))].slice(
    0,
    MAX_ADDRESSES_PER_REQUEST,
  );
  if (!wanted.length) return;
  const found = await settled(
    queryClient.fetchQuery(trpc.users.byAddress.queryOptions({ addresses: wanted.join(',') })),
  );
  if (!found) return;
  const byKey = new Map(found.items.map((p) => [p.address.toLowerCase(), p]));
  for (const a of wanted) queryClient.setQueryData(['address-profile', a], byKey.get(a) ?? null);
  queryClient.removeQueries({ queryKey: trpc.users.byAddress.queryKey() });
}
