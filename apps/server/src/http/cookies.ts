import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './request-info';

/**
 * Cookies are Secure whenever the app or this request is on https (docs/api.md, "Cross-site requests"):
 * `appUrl` is the configured APP_URL, the request's own scheme as the pipeline read it (TRUST_PROXY).
 */
export const secureCookies = (request: FastifyRequest, appUrl: string) =>
  appUrl.startsWith('https:') || !!request.plenum?.https;

/** the session cookie, as every way to sign in sets it and sign-out clears it (docs/accounts.md, "Signing in") */
export function writeSessionCookie(
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
  secure: boolean,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    maxAge: maxAgeSeconds,
    secure,
  });
}
