import type { LiveEventSource, Principal, Services, StorageRuntime, StreamConnection } from '@plenum/core';

/**
 * The service container: everything procedures, plain routes and workers use, built once at start-up
 * by the server (apps/server/src/services.ts; docs/architecture.md).
 */
export interface ApiServices extends Services {
  /** true when a real email provider is configured (the development outbox is then hidden) */
  emailProviderConfigured: boolean;
  version: string;
  /** the IPFS node and gateways; null while storage is not running (stopping, or a test without it) */
  storage: StorageRuntime | null;
  /** this instance's live event source; null where none runs (procedure tests) */
  events: LiveEventSource | null;
}

export interface CookieOptions {
  maxAgeSeconds: number;
}

export interface Context {
  svc: ApiServices;
  principal: Principal | null;
  /** the raw credential presented, so that logout can end exactly this session */
  token: string | null;
  /** the client's address for rate limits and session lists (X-Forwarded-For under TRUST_PROXY) */
  ip: string;
  /**
   * the TCP peer's own address, never a header: what the development outbox trusts (docs/operations.md,
   * "Email"); null where there is no socket
   */
  socketAddress: string | null;
  /** the client's User-Agent header, recorded on the sessions it signs in (null when absent) */
  userAgent: string | null;
  requestId: string;
  transport: 'rest' | 'trpc' | 'ws';
  /** sets or clears (maxAge 0) the HttpOnly session cookie; a no-op on WebSocket */
  setSessionCookie(token: string, options: CookieOptions): void;
  /**
   * sets the short-lived cookie that binds an OpenID sign-in under way to this browser (docs/accounts.md,
   * "Signing in with OpenID Connect"); only HTTP transports have it
   */
  setBrowserBinding?(token: string, maxAgeSeconds: number): void;
  /** extra response headers (e.g. Location) */
  setHeader(name: string, value: string): void;
  /** on a WebSocket: its event streams' slots and its socket's backpressure (docs/events.md, "Limits") */
  connection?: StreamConnection;
}
