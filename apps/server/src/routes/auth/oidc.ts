import { AppError, finishOidc, type OidcOutcome, sealHandoff, startOidc } from '@plenum/core';
import type { FastifyReply } from 'fastify';
import { secureCookies, writeSessionCookie } from '../../http/cookies';
import { cookieValue } from '../../http/request-info';
import type { RouteContext } from '../../http/routes';

/**
 * The browser's way through OpenID Connect sign-in (docs/accounts.md, "Signing in with OpenID Connect"):
 * plain routes because both answer redirects. The flow is bound to the browser that started it by the
 * `plenum_oidc` cookie (HttpOnly, SameSite=Lax, 10 minutes, only sent to /auth/oidc): a callback in
 * another browser, or one an attacker made the victim's browser open, finds no state (login CSRF).
 */
export const OIDC_COOKIE = 'plenum_oidc';

const secure = (rc: RouteContext) => secureCookies(rc.request, rc.svc.config.appUrl);

export function setBrowserCookie(
  reply: FastifyReply,
  value: string,
  maxAgeSeconds: number,
  isSecure: boolean,
) {
  reply.setCookie(OIDC_COOKIE, value, {
    path: '/auth/oidc',
    httpOnly: true,
    sameSite: 'lax',
    maxAge: maxAgeSeconds,
    secure: isSecure,
  });
}

const appPage = (rc: RouteContext, path: string) => `${rc.svc.config.appUrl.replace(/\/+$/, '')}${path}`;

function redirect(rc: RouteContext, location: string) {
  return rc.reply.code(302).header('Cache-Control', 'no-store').header('Location', location).send();
}

/**
 * GET /auth/oidc/{provider}/start[?returnTo=/path][&intent=link]: 302 to the provider. `intent=link`
 * links to the signed-in account (the session, by its cookie or header): a GET must not change anything
 * by itself, and this one only starts a flow whose callback must come back to this browser; what it can
 * link is the browser's own identity at the provider to the browser's own account.
 */
export async function startOidcRoute(rc: RouteContext) {
  const link = rc.query.get('intent') === 'link';
  const principal = rc.principal;
  if (link && principal?.kind !== 'session')
    return redirect(rc, appPage(rc, '/sign-in?error=SIGN_IN_REQUIRED'));
  let started: Awaited<ReturnType<typeof startOidc>>;
  try {
    started = await startOidc(rc.svc, {
      provider: rc.params.provider ?? '',
      returnTo: rc.query.get('returnTo'),
      linkUserId: link && principal ? principal.userId : null,
    });
  } catch (err) {
    // a provider that is down is the person's problem to hear about on the page, not a JSON error
    if (err instanceof AppError && err.options.reason === 'OIDC_PROVIDER_UNAVAILABLE')
      return redirect(rc, appPage(rc, '/sign-in?error=OIDC_PROVIDER_UNAVAILABLE'));
    throw err;
  }
  setBrowserCookie(rc.reply, started.browserToken, Math.floor(started.expiresInMs / 1000), secure(rc));
  return redirect(rc, started.url);
}

/** GET /auth/oidc/{provider}/callback: the provider's answer; always a 302 back to the app */
export async function oidcCallbackRoute(rc: RouteContext) {
  const callbackUrl = new URL(rc.request.url, 'http://callback.invalid');
  const outcome = await finishOidc(rc.svc, {
    provider: rc.params.provider ?? '',
    callbackUrl,
    browserToken: cookieValue(rc.request.headers.cookie, OIDC_COOKIE),
    client: { ip: rc.request.plenum?.ip ?? null, userAgent: rc.request.headers['user-agent'] ?? null },
  });
  // the flow is over whichever way it went
  setBrowserCookie(rc.reply, '', 0, secure(rc));
  return redirect(rc, appPage(rc, landing(rc, outcome)));
}

/** where the app takes over (docs/accounts.md, "Signing in with OpenID Connect": where the browser lands) */
function landing(rc: RouteContext, outcome: OidcOutcome): string {
  switch (outcome.kind) {
    case 'session': {
      const maxAge = Math.max(
        0,
        Math.floor((Date.parse(outcome.session.expiresAt) - rc.svc.clock.now().getTime()) / 1000),
      );
      writeSessionCookie(rc.reply, outcome.session.token, maxAge, secure(rc));
      // for a client whose session is a Bearer token (the web app): see docs/accounts.md
      return `${outcome.returnTo.split('#')[0]}#session=${encodeURIComponent(sealHandoff(rc.svc, outcome.session))}`;
    }
    case 'mfa':
      // in the fragment: never sent to a server nor in a Referer
      return `/sign-in?next=${encodeURIComponent(outcome.returnTo)}#mfa=${encodeURIComponent(outcome.challenge.mfaToken)}`;
    case 'pending':
      return '/sign-in?oidc=verify-email';
    case 'checkEmail':
      return '/sign-in?oidc=check-email';
    case 'linked':
      return outcome.returnTo;
    case 'error':
      return outcome.linking
        ? `/account?tab=security&error=${outcome.code}`
        : `/sign-in?error=${outcome.code}`;
  }
}
