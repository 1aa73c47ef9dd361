import { users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { serializeUser } from '../../accounts/serialize';
import type { Services } from '../../services';
import { AppError, badRequest } from '../../shared/errors';
import { open, seal } from '../../shared/secret-box';
import { resolveToken } from '../sessions';

/**
 * A session made by the callback reaches a client that keeps its session as a Bearer token (the web app)
 * through the URL's fragment: the session sealed under the server's secret key with a 2-minute expiry,
 * redeemed by `POST /auth/oidc/handoff`. Sealed so that a browser's history keeps nothing usable after
 * two minutes (docs/accounts.md, "Signing in with OpenID Connect").
 */
export const HANDOFF_TTL_MS = 2 * 60_000;
const PURPOSE = 'oidc handoff';

export function sealHandoff(svc: Services, session: { token: string; expiresAt: string }) {
  const until = svc.clock.now().getTime() + HANDOFF_TTL_MS;
  return seal(svc.config.secretKey(), PURPOSE, JSON.stringify({ ...session, until }));
}

const invalid = () =>
  badRequest('This sign-in link is invalid or expired', undefined, 'OIDC_HANDOFF_INVALID');

export async function redeemHandoff(svc: Services, params: { handoff: string }) {
  let held: { token: string; expiresAt: string; until: number };
  try {
    held = JSON.parse(open(svc.config.secretKey(), PURPOSE, params.handoff));
  } catch (err) {
    if (err instanceof AppError || err instanceof SyntaxError) throw invalid();
    throw err;
  }
  if (held.until < svc.clock.now().getTime()) throw invalid();
  // a session ended since (signed out, suspended) is not handed on
  const principal = await resolveToken(svc, { token: held.token });
  if (principal?.kind !== 'session') throw invalid();
  const [user] = await svc.db.select().from(users).where(eq(users.id, principal.userId));
  if (!user) throw invalid();
  return { token: held.token, expiresAt: held.expiresAt, user: serializeUser(user) };
}
