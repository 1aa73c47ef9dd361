import { type DbOrTx, daos, passkeys, sessions, totpFactors, wallets } from '@plenum/db';
import { and, asc, count, desc, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import { writeAudit } from '../../audit/write-audit';
import { recordAccountEvent } from '../../auth/activity';
import { listIdentities, providerNameOf } from '../../auth/identities';
import { newResetLink, storeResetLink } from '../../auth/password/reset';
import { endSessionsExcept } from '../../auth/user-sessions';
import type { Services } from '../../services';
import { conflict, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { storageUsage } from '../../storage/quota';
import { loadLiveUser, lockLiveUser } from '../access';

/**
 * The admin's view of one user (docs/users.md, "Administration"): the list's fields and what stands behind
 * the account: wallets, linked identities, second factors (kinds only), live sessions (never their
 * tokens), DAOs its wallets own. Two actions: end every session, mail a password reset link.
 */

/** The account's linked OpenID Connect identities, by the provider's configured name. */
export async function identitiesOf(svc: Pick<Services, 'db' | 'oidc'>, userId: string) {
  const linked = await listIdentities(svc.db, userId, providerNameOf(svc));
  return linked.map((i) => ({
    id: i.id,
    provider: i.provider,
    providerName: i.providerName,
    email: i.email,
    linkedAt: i.createdAt,
    lastUsedAt: i.lastUsedAt,
  }));
}

/**
 * The kinds of the account's second factors, never their secrets: a confirmed TOTP app (`totp`) and
 * passkeys (`passkey`, with how many).
 */
export async function factorKindsOf(db: DbOrTx, userId: string): Promise<{ kind: string; count: number }[]> {
  const [[totp], [keys]] = await Promise.all([
    db
      .select({ n: count() })
      .from(totpFactors)
      .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt))),
    db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
  ]);
  const kinds: { kind: string; count: number }[] = [];
  if (totp?.n) kinds.push({ kind: 'totp', count: totp.n });
  if (keys?.n) kinds.push({ kind: 'passkey', count: keys.n });
  return kinds;
}

const unknownUser = () => notFound('User not found');

export async function getAdminUserDetail(
  svc: Pick<Services, 'db' | 'clock' | 'oidc' | 'config'>,
  params: { id: string },
) {
  if (!isUuid(params.id)) throw unknownUser();
  const user = await loadLiveUser(svc.db, params.id);
  const now = svc.clock.now();
  const [linked, identities, factors, live, storage] = await Promise.all([
    svc.db
      .select({ address: wallets.address, isPrimary: wallets.isPrimary, linkedAt: wallets.linkedAt })
      .from(wallets)
      .where(eq(wallets.userId, user.id))
      .orderBy(asc(wallets.linkedAt), asc(wallets.address)),
    identitiesOf(svc, user.id),
    factorKindsOf(svc.db, user.id),
    svc.db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .limit(200),
    storageUsage(svc, { userId: user.id }),
  ]);
  const owned = linked.length
    ? await svc.db
        .select({ id: daos.id, name: daos.name })
        .from(daos)
        .where(
          inArray(
            daos.ownerAddress,
            linked.map((w) => w.address),
          ),
        )
        .orderBy(asc(daos.name), asc(daos.id))
    : [];
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    status: user.status,
    role: user.role,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    suspendedAt: user.suspendedAt?.toISOString() ?? null,
    suspensionReason: user.suspensionReason,
    wallets: linked.map((w) => ({ ...w, linkedAt: w.linkedAt.toISOString() })),
    identities,
    factors,
    sessions: live.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastUsedAt?.toISOString() ?? null,
      ip: s.ip,
      userAgent: s.userAgent,
    })),
    ownedDaos: owned,
    storage,
  };
}

/**
 * POST /admin/users/{id}/sessions/revoke: every session of the user ends at once (its next request is a
 * 401); its access tokens are separate credentials and stay. The user's row is locked, so of many revokes
 * at once each ends what the one before left: the counts add up to the sessions there were.
 */
export async function adminRevokeSessions(svc: Services, params: { adminId: string; id: string }) {
  if (!isUuid(params.id)) throw unknownUser();
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    const ended = await endSessionsExcept(tx, user.id, null, now);
    await recordAccountEvent(tx, {
      userId: user.id,
      kind: 'sessions_revoked',
      detail: { count: ended, by: 'admin' },
      at: now,
    });
    await writeAudit(tx, {
      actorId: params.adminId,
      action: 'user.sessions_revoke',
      targetId: user.id,
      details: { ended },
      at: now,
    });
    return { ended };
  });
}

/**
 * POST /admin/users/{id}/password-reset: mails the user a password reset link, as the user's own request
 * would (the same token, mail and expiry); the password stays until the user uses the link. A suspended
 * account could not use it: 409 ACCOUNT_SUSPENDED.
 */
export async function adminSendPasswordReset(svc: Services, params: { adminId: string; id: string }) {
  if (!isUuid(params.id)) throw unknownUser();
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    if (user.status === 'suspended')
      throw conflict('A suspended account cannot use a reset link; reactivate it first', 'ACCOUNT_SUSPENDED');
    await storeResetLink(svc, tx, { user, link: newResetLink() });
    await writeAudit(tx, {
      actorId: params.adminId,
      action: 'user.password_reset_sent',
      targetId: user.id,
      at: now,
    });
  });
}
