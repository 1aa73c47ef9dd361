import {
  accessTokens,
  type DbOrTx,
  mfaChallenges,
  passkeyChallenges,
  passkeys,
  recoveryCodes,
  sessions,
  totpFactors,
  users,
} from '@plenum/db';
import { TOKEN_SCOPES, type TokenScope } from '@plenum/validators';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Services } from '../services';
import { hashToken, newToken } from '../shared/tokens';
import { hasSecondFactor } from './factors';
import { LAST_USED_RESOLUTION_MS } from './session-lookup';

export const PAT_PREFIX = 'plm_';

export interface Principal {
  userId: string;
  role: 'user' | 'admin';
  status: 'pending_verification' | 'active' | 'suspended';
  email: string;
  /** 'session' for sign-in tokens, 'pat' for personal access tokens */
  kind: 'session' | 'pat';
  credentialId: string;
  /** what the credential may do: a token its scopes, a session all of them (docs/accounts.md, "Token scopes") */
  scopes: readonly TokenScope[];
  /**
   * an admin's session while MFA_REQUIRED_FOR_ADMINS is on and the account has no second factor: only
   * the paths that set one up are open (docs/accounts.md, "Two-factor sign-in")
   */
  mfaEnrolmentRequired?: true;
}

/** a signed-in session may do anything its account may */
export const SESSION_SCOPES: readonly TokenScope[] = TOKEN_SCOPES;

/** The client a session is created for, as the request showed it (shown in the user's session list). */
export interface SessionClient {
  ip?: string | null | undefined;
  userAgent?: string | null | undefined;
}

/** a header is the client's to choose: keep the list readable and the row small */
const MAX_USER_AGENT = 512;

export { LAST_USED_RESOLUTION_MS };

/** a new session's secret and its row (not yet written): createSession's, or a sign-in statement's own */
export function newSession(
  svc: Pick<Services, 'clock' | 'config'>,
  userId: string,
  client: SessionClient = {},
) {
  const token = newToken();
  const now = svc.clock.now();
  const expiresAt = new Date(now.getTime() + svc.config.sessionTtlMs);
  const row = {
    userId,
    tokenHash: hashToken(token),
    expiresAt,
    createdAt: now,
    lastUsedAt: now,
    userAgent: client.userAgent?.slice(0, MAX_USER_AGENT) || null,
    ip: client.ip?.slice(0, 100) || null,
  };
  return { token, expiresAt, row };
}

export async function createSession(
  svc: Pick<Services, 'clock' | 'config'>,
  db: DbOrTx,
  userId: string,
  client: SessionClient = {},
) {
  const { token, expiresAt, row } = newSession(svc, userId, client);
  await db.insert(sessions).values(row);
  return { token, expiresAt };
}

/**
 * Who presents this token: a live session or an unrevoked personal access token of a user who is neither
 * suspended nor deleted. Checked on every request, so suspension and deletion take effect at once.
 */
export async function resolveToken(
  svc: Pick<Services, 'db' | 'clock' | 'sessions' | 'config'>,
  params: { token: string },
): Promise<Principal | null> {
  const { token } = params;
  if (!token || token.length > 512) return null;
  const now = svc.clock.now();
  const tokenHash = hashToken(token);
  if (token.startsWith(PAT_PREFIX)) {
    const [row] = await svc.db
      .select({
        id: accessTokens.id,
        lastUsedAt: accessTokens.lastUsedAt,
        scopes: accessTokens.scopes,
        user: users,
      })
      .from(accessTokens)
      .innerJoin(users, eq(users.id, accessTokens.userId))
      .where(
        and(
          eq(accessTokens.tokenHash, tokenHash),
          isNull(accessTokens.revokedAt),
          or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, now)),
        ),
      )
      .limit(1);
    if (!row || row.user.deletedAt || row.user.status === 'suspended') return null;
    // at most one write a minute per token: "last used" is for people reviewing their tokens, not an audit trail
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await svc.db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.id, row.id));
    }
    return toPrincipal(row.user, 'pat', row.id, row.scopes);
  }
  // likewise at most one write a minute per session, made by the grouped lookup itself (session-lookup.ts):
  // a burst of requests (votes) is neither one write each nor a second statement
  const row = await svc.sessions.lookups.find(tokenHash, now);
  if (!row || row.user.deleted || row.user.status === 'suspended') return null;
  const principal = toPrincipal(row.user, 'session', row.id, SESSION_SCOPES);
  // one more read for admins only, and only when the rule is on: a member's request costs nothing more
  if (
    row.user.role === 'admin' &&
    svc.config.mfaRequiredForAdmins &&
    !(await hasSecondFactor(svc.db, row.user.id))
  )
    principal.mfaEnrolmentRequired = true;
  return principal;
}

function toPrincipal(
  user: Pick<typeof users.$inferSelect, 'id' | 'role' | 'status' | 'email'>,
  kind: Principal['kind'],
  credentialId: string,
  scopes: readonly TokenScope[],
): Principal {
  return {
    userId: user.id,
    role: user.role,
    status: user.status,
    email: user.email,
    kind,
    credentialId,
    scopes,
  };
}

export async function deleteSession(svc: Pick<Services, 'db'>, params: { token: string }) {
  await svc.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(params.token)));
}

/**
 * Ends the user's sign-in sessions (suspension). Their access tokens are kept but refused while the
 * account is suspended (resolveToken checks the status on every request), so a reactivated account's
 * integrations work again without new tokens.
 */
export async function endSessions(tx: DbOrTx, params: { userId: string }) {
  await tx.delete(sessions).where(eq(sessions.userId, params.userId));
}

/**
 * Ends every session and revokes every access token of a user, and forgets its second factors and passkeys (deletion:
 * the row stays, its secrets do not).
 */
export async function endAllSessions(tx: DbOrTx, params: { userId: string; at: Date }) {
  const { userId, at } = params;
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
  await tx
    .update(accessTokens)
    .set({ revokedAt: at })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)));
}
