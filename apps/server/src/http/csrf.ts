import type { IncomingMessage } from 'node:http';
import { hasSessionCookie } from './request-info';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginPolicy {
  /** the web app's origin (APP_URL), CORS_ORIGINS and the API's own public origin */
  trusted: Set<string>;
}

/**
 * Cross-site request forgery guard (docs/api.md, "Cross-site requests"). The session cookie is
 * SameSite=Lax, which stops other *sites* but not other origins of the same site (another port, a
 * sibling subdomain), and writes that need no CORS preflight (multipart, body-less POSTs, a WebSocket
 * handshake) would reach the API with it. So a request that is unsafe (not GET/HEAD/OPTIONS, or a
 * WebSocket upgrade) and is authenticated by the cookie (no Authorization header) must come from a
 * trusted origin: its `Origin` is trusted or is the API itself; without `Origin`, `Sec-Fetch-Site` must
 * not say another origin. Requests with neither header are not from a browser and pass; Bearer and
 * access-token requests pass from anywhere (a page cannot make a browser attach them).
 */
export function isCrossOriginCookieRequest(
  req: IncomingMessage,
  policy: OriginPolicy,
  /** a handshake that opens an authenticated stream (Socket.IO, tRPC over WebSocket) counts as unsafe */
  options: { stream?: boolean } = {},
): boolean {
  const unsafe =
    options.stream || req.headers.upgrade !== undefined || !SAFE_METHODS.has(req.method ?? 'GET');
  if (!unsafe) return false;
  if (req.headers.authorization || !hasSessionCookie(req)) return false;
  const origin = req.headers.origin;
  if (origin !== undefined) return !(policy.trusted.has(origin) || isOwnOrigin(origin, req));
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

/** the API answering on its own origin (its docs page, a same-origin deployment) */
function isOwnOrigin(origin: string, req: IncomingMessage): boolean {
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false; // 'null' (sandboxed frames, file: pages) and garbage are never trusted
  }
}

export function trustedOrigins(appUrl: string, corsOrigins: string[], publicUrl: string): Set<string> {
  return new Set([new URL(appUrl).origin, new URL(publicUrl).origin, ...corsOrigins]);
}
