import type { Principal, Services } from '@plenum/core';

/**
 * Everything the server hands to procedures. Other domains extend `ApiServices` with their own
 * dependencies (event bus, IPFS providers) in the server's composition root.
 */
export interface ApiServices extends Services {
  /** true when a real email provider is configured (the development outbox is then hidden) */
  emailProviderConfigured: boolean;
  version: string;
  [extra: string]: unknown;
}

export interface CookieOptions {
  maxAgeSeconds: number;
}

export interface Context {
  svc: ApiServices;
  principal: Principal | null;
  /** the raw credential presented, so that logout can end exactly this session */
  token: string | null;
  ip: string;
  /** the client's User-Agent header, recorded on the sessions it signs in (null when absent) */
  userAgent: string | null;
  requestId: string;
  transport: 'rest' | 'trpc' | 'ws';
  /** sets or clears (maxAge 0) the HttpOnly session cookie; a no-op on WebSocket */
  setSessionCookie(token: string, options: CookieOptions): void;
  /** extra response headers (e.g. Location) */
  setHeader(name: string, value: string): void;
}
