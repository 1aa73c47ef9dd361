import { type DbOrTx, sessions } from '@plenum/db';
import { and, count, desc, eq, gt, ne } from 'drizzle-orm';
import type { Services } from '../services';
import { forbidden, notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { fetchPage, type Page } from '../shared/pagination';
import { recordAccountEvent } from './activity';
import type { Principal, SessionClient } from './sessions';

/**
 * A user's own sign-in sessions ("sessions and devices"): list, end one, end all but this one. These
 * are account-security actions, so they need a signed-in session: a personal access token has no
 * "this device", and a leaked one must not be able to sign its owner out everywhere.
 */
export type SessionPrincipal = Principal & { kind: 'session' };

export function assertSession(principal: Principal): asserts principal is SessionPrincipal {
  if (principal.kind !== 'session')
    throw forbidden('Manage your account from a signed-in session, not with a token', 'SESSION_REQUIRED');
}

const view = (s: typeof sessions.$inferSelect, currentId: string) => ({
  id: s.id,
  createdAt: s.createdAt.toISOString(),
  lastUsedAt: s.lastUsedAt?.toISOString() ?? null,
  expiresAt: s.expiresAt.toISOString(),
  userAgent: s.userAgent,
  ip: s.ip,
  current: s.id === currentId,
});

/** The caller's live sessions, newest first, a page at a time; `current` marks the one asking. */
export async function listSessions(
  svc: Pick<Services, 'db' | 'clock'>,
  params: Page & { principal: Principal },
) {
  const { principal } = params;
  assertSession(principal);
  const where = and(eq(sessions.userId, principal.userId), gt(sessions.expiresAt, svc.clock.now()));
  const { rows, pagination } = await fetchPage(
    params,
    svc.db
      .select()
      .from(sessions)
      .where(where)
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .$dynamic(),
    svc.db.select({ n: count() }).from(sessions).where(where),
  );
  return { items: rows.map((s) => view(s, principal.credentialId)), pagination };
}

/**
 * Ends one of the caller's sessions at once (the next request with its token is a 401). Someone
 * else's session, like an unknown id, is a 404: the answer never says that it exists.
 * Returns whether it was the caller's current session.
 */
export async function revokeSession(
  svc: Pick<Services, 'db' | 'clock'>,
  params: { principal: Principal; id: string; client?: SessionClient | undefined },
) {
  const { principal, id } = params;
  assertSession(principal);
  if (!isUuid(id)) throw notFound('No such session');
  await svc.db.transaction(async (tx) => {
    const rows = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, principal.userId)))
      .returning({ id: sessions.id });
    if (!rows.length) throw notFound('No such session');
    await recordAccountEvent(tx, {
      userId: principal.userId,
      kind: 'sessions_revoked',
      detail: { count: 1, sessionId: id },
      ...params.client,
      at: svc.clock.now(),
    });
  });
  return { current: id === principal.credentialId };
}

/**
 * Ends every session of the user except `keepId` (none when null). Expired rows go too; the count is
 * of the sessions that were still live, the ones the user saw in their list.
 */
export async function endSessionsExcept(db: DbOrTx, userId: string, keepId: string | null, now: Date) {
  const rows = await db
    .delete(sessions)
    .where(keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId))
    .returning({ expiresAt: sessions.expiresAt });
  return rows.filter((r) => r.expiresAt > now).length;
}

/** "Sign out of all other sessions": every session of the caller but this one ends. */
export async function revokeOtherSessions(
  svc: Pick<Services, 'db' | 'clock'>,
  params: { principal: Principal; client?: SessionClient | undefined },
) {
  const { principal } = params;
  assertSession(principal);
  const now = svc.clock.now();
  const ended = await svc.db.transaction(async (tx) => {
    const n = await endSessionsExcept(tx, principal.userId, principal.credentialId, now);
    await recordAccountEvent(tx, {
      userId: principal.userId,
      kind: 'sessions_revoked',
      detail: { count: n, others: true },
      ...params.client,
      at: now,
    });
    return n;
  });
  return { ended };
}
