import type { Context } from '../context';

/**
 * The session cookie of a finished sign-in, living as long as the session (docs/accounts.md, "Signing in");
 * a sign-in that awaits its second factor has none yet. Every way to sign in answers through it.
 */
export function setSessionCookieFor(
  ctx: Context,
  answer: { token: string; expiresAt: string } | { mfaRequired: true },
) {
  if ('mfaRequired' in answer) return;
  const maxAgeSeconds = Math.max(
    0,
    Math.floor((Date.parse(answer.expiresAt) - ctx.svc.clock.now().getTime()) / 1000),
  );
  ctx.setSessionCookie(answer.token, { maxAgeSeconds });
}
