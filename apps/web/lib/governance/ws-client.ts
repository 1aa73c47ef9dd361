'use client';
import { createWSClient } from '@trpc/client';
import { getSessionToken } from '../session';

type WsClient = ReturnType<typeof createWSClient>;
let current: { url: string; client: WsClient } | null = null;
let tokenOfConnection: string | null = null;
let closing: Promise<void> = Promise.resolve();

/** http(s)://host → ws(s)://host/trpc: subscriptions share the API's port and path (docs/events.md, "tRPC subscription"). */
export function wsUrlOf(apiUrl: string): string {
  return `${apiUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/trpc`;
}

/**
 * One WebSocket for every live subscription of the page. Lazy: it opens with the first subscription
 * and closes a few seconds after the last, so a signed-out visitor (who polls instead) never opens it.
 * The server authenticates the socket once, from connectionParams, when it connects.
 */
export function liveEventsClient(apiUrl: string): WsClient {
  const url = wsUrlOf(apiUrl);
  if (current?.url === url) return current.client;
  const client = createWSClient({
    url,
    lazy: { enabled: true, closeMs: 3_000 },
    connectionParams: () => {
      tokenOfConnection = getSessionToken();
      return tokenOfConnection ? { token: tokenOfConnection } : {};
    },
    retryDelayMs: (attempt) => Math.min(500 * 2 ** attempt, 10_000),
  });
  current = { url, client };
  return client;
}

/**
 * A socket opened with another session (sign-out then sign-in as someone else) would keep the old
 * identity: close it so the next subscription connects with the current token.
 */
export function reconnectIfSessionChanged(token: string | null): Promise<void> {
  if (current && tokenOfConnection !== null && tokenOfConnection !== token) {
    tokenOfConnection = null;
    closing = current.client.close().catch(() => {});
  }
  // every subscriber waits for the same close, then reconnects with the new token
  return closing;
}
