import type { IncomingMessage } from 'node:http';
import type { ApiServices } from '@plenum/api';
import { type Principal, resolveToken } from '@plenum/core';
import { isCrossOriginCookieRequest, type OriginPolicy } from './csrf';
import { credentialOf } from './request-info';

/** Who made a request, or why it may not go on; each transport answers the refusals its own way. */
export type Authentication =
  | { ok: true; principal: Principal; token: string }
  /** no credential, or one that names no one (expired, revoked): anonymous over HTTP, refused on a stream */
  | { ok: false; reason: 'TOKEN_REQUIRED' | 'INVALID_TOKEN' }
  /** the session cookie from an origin that may not use it (docs/api.md, "Cross-site requests") */
  | { ok: false; reason: 'CSRF' }
  /** the credential could not be looked up (the database failed) */
  | { ok: false; reason: 'DATABASE_UNAVAILABLE'; error: unknown };

export interface AuthenticateOptions {
  /** a token the client gave in the handshake itself (tRPC `connectionParams`, Socket.IO `auth`) */
  given?: unknown;
  /** the handshake opens an authenticated stream: a cookie-borne one counts as unsafe (csrf.ts) */
  stream?: boolean;
  /** for the log line of a failed lookup */
  requestId?: string;
}

export type Authenticate = (req: IncomingMessage, options?: AuthenticateOptions) => Promise<Authentication>;

/**
 * The one authentication of every transport (HTTP, tRPC over WebSocket, Socket.IO;
 * docs/architecture.md, "Authentication"): the token given in the handshake, else the Bearer header, else
 * the session cookie, which only a trusted origin may use; then the session or access token it names.
 */
export function createAuthenticator(svc: ApiServices, originPolicy: OriginPolicy): Authenticate {
  return async (req, options = {}) => {
    const given = typeof options.given === 'string' && options.given ? options.given : null;
    if (!given && isCrossOriginCookieRequest(req, originPolicy, { stream: options.stream === true }))
      return { ok: false, reason: 'CSRF' };
    const token = given ?? credentialOf(req);
    if (!token) return { ok: false, reason: 'TOKEN_REQUIRED' };
    let principal: Principal | null;
    try {
      principal = await resolveToken(svc, { token });
    } catch (error) {
      svc.log.error({ err: error, requestId: options.requestId }, 'credential lookup failed');
      return { ok: false, reason: 'DATABASE_UNAVAILABLE', error };
    }
    return principal ? { ok: true, principal, token } : { ok: false, reason: 'INVALID_TOKEN' };
  };
}
