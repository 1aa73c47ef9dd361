'use client';
import type { AppRouter } from '@plenum/api';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, splitLink, wsLink } from '@trpc/client';
import { type ReactNode, useState } from 'react';
import { ThemeProvider, ThemeSync } from '../components/account/theme';
import { OidcHandoff } from '../components/oidc-handoff';
import { Toaster } from '../components/ui/toaster';
import { TooltipProvider } from '../components/ui/tooltip';
import { ApiUrlProvider } from '../lib/api-url';
import { liveEventsClient } from '../lib/governance/ws-client';
import { I18nSync } from '../lib/i18n/sync';
import { makeQueryClient } from '../lib/query-client';
import { getSessionToken } from '../lib/session';
import { TRPCProvider } from '../lib/trpc';

/** the session is the Bearer token alone: no ambient cookie can outlive a sign-out here */
function bearer(): Record<string, string> {
  const token = getSessionToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The API's URL comes from the server at request time (API_URL), so one build serves any deployment. */
export function Providers({ apiUrl, children }: { apiUrl: string; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        // subscriptions (live governance events) over WebSocket, everything else over HTTP: queries in
        // batches of at most 10 (the API refuses more than TRPC_MAX_BATCH, default 20), mutations one per
        // request, as the API refuses a sign-in or password call inside a batch (docs/api.md, "Rate limits")
        splitLink({
          condition: (op) => op.type === 'subscription' && typeof window !== 'undefined',
          true: wsLink({ client: liveEventsClient(apiUrl) }),
          false: splitLink({
            condition: (op) => op.type === 'mutation',
            // a batch of one, not httpLink, which sends an input-less mutation as an empty JSON body
            true: httpBatchLink({ url: `${apiUrl}/trpc`, headers: bearer, maxItems: 1 }),
            false: httpBatchLink({ url: `${apiUrl}/trpc`, headers: bearer, maxItems: 10 }),
          }),
        }),
      ],
    }),
  );
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <ApiUrlProvider value={apiUrl}>
            <TooltipProvider>
              <ThemeSync />
              <I18nSync />
              <OidcHandoff />
              {children}
              <Toaster />
            </TooltipProvider>
          </ApiUrlProvider>
        </TRPCProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
