import { type DbOrTx, identityLinkRequests, isUniqueViolation, userIdentities, users } from '@plenum/db';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { findUserByEmail, normalizeEmail } from '../accounts/find-by-email';
import { issueVerification } from '../accounts/verification';
import { writeAudit } from '../audit/write-audit';
import { enqueueEmail } from '../mail/outbox';
import { escapeHtml } from '../mail/templates';
import type { Services } from '../services';
import { AppError, badRequest, conflict, notFound } from '../shared/errors';
import { hashToken, newToken } from '../shared/tokens';
import { recordAccountEvent } from './activity';
import { NO_PASSWORD } from './password/hash';
import type { SessionClient } from './sessions';
import { countSignInMethods, lockAccount } from './sign-in-methods';

/**
 * Identities at OpenID providers linked to accounts (docs/accounts.md, "Signing in with OpenID Connect"):
 * the list, unlinking, and what a proven identity does to accounts (sign in, create, link, ask by mail).
 */

/** the person's claims as the provider's ID token (or userinfo) gave them */
export interface ProvenIdentity {
  provider: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName?: string | undefined;
  familyName?: string | undefined;
  name?: string | undefined;
}

/** how long the mailed link that confirms linking to an existing account works */
export const LINK_REQUEST_TTL_MS = 24 * 3_600_000;

export async function listIdentities(db: DbOrTx, userId: string, providerName?: (id: string) => string) {
  const rows = await db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.createdAt), asc(userIdentities.id));
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider,
    providerName: providerName?.(r.provider) ?? r.provider,
    email: r.email,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** the configured name of a provider, or its id once it is no longer configured */
export const providerNameOf = (svc: Pick<Services, 'oidc'>) => (id: string) =>
  svc.oidc.providers.find((p) => p.id === id)?.name ?? id;

/**
 * DELETE /auth/identities/{id}: someone else's identity is as absent as none (404); never the last way to
 * sign in (409 LAST_SIGN_IN_METHOD), counted under the account's lock like a wallet's unlinking.
 */
export async function unlinkIdentity(
  svc: Services,
  params: { userId: string; id: string; client?: SessionClient | undefined },
) {
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    await lockAccount(tx, params.userId);
    const [identity] = await tx
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.id, params.id), eq(userIdentities.userId, params.userId)))
      .for('update');
    if (!identity) throw notFound('No such linked identity');
    if ((await countSignInMethods(tx, params.userId)) <= 1)
      throw conflict(
        'This identity is the only way to sign in to this account: set a password first',
        'LAST_SIGN_IN_METHOD',
      );
    await tx.delete(userIdentities).where(eq(userIdentities.id, identity.id));
    await writeAudit(tx, {
      actorId: params.userId,
      action: 'identity.unlinked',
      targetId: params.userId,
      details: { provider: identity.provider },
      at: now,
    });
    await recordAccountEvent(tx, {
      userId: params.userId,
      kind: 'identity_unlinked',
      detail: { provider: identity.provider },
      ...params.client,
      at: now,
    });
  });
}

/** links a proven identity to an account; one linked elsewhere already is a 409 OIDC_IDENTITY_TAKEN */
export async function linkIdentity(tx: DbOrTx, userId: string, id: ProvenIdentity, now: Date) {
  try {
    await tx.insert(userIdentities).values({
      userId,
      provider: id.provider,
      subject: id.subject,
      email: id.email,
      createdAt: now,
      lastUsedAt: now,
    });
    await recordAccountEvent(tx, {
      userId,
      kind: 'identity_linked',
      detail: { provider: id.provider },
      at: now,
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('This identity is linked to another account', 'OIDC_IDENTITY_TAKEN');
    throw err;
  }
}

export type IdentityResolution =
  | { kind: 'signIn'; user: typeof users.$inferSelect }
  | { kind: 'created'; user: typeof users.$inferSelect; active: boolean }
  | { kind: 'linked' }
  | { kind: 'confirmationSent' };

/**
 * What a proven identity does (docs/accounts.md, "Signing in with OpenID Connect": the linking rules): a known identity signs its account in;
 * a link flow links it to the signed-in account; an unknown email gets a new account; an email that has
 * an account is never linked silently: its owner gets a mail to confirm.
 */
export async function resolveIdentity(
  svc: Services,
  id: ProvenIdentity,
  linkUserId: string | null,
): Promise<IdentityResolution> {
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const [known] = await tx
      .select({ identity: userIdentities, user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.provider, id.provider), eq(userIdentities.subject, id.subject)));
    if (linkUserId) {
      if (known && known.user.id !== linkUserId)
        throw conflict('This identity is linked to another account', 'OIDC_IDENTITY_TAKEN');
      if (!known) {
        await lockAccount(tx, linkUserId);
        await linkIdentity(tx, linkUserId, id, now);
        await writeAudit(tx, {
          actorId: linkUserId,
          action: 'identity.linked',
          targetId: linkUserId,
          details: { provider: id.provider },
          at: now,
        });
      }
      return { kind: 'linked' };
    }
    if (known) {
      await tx
        .update(userIdentities)
        .set({ lastUsedAt: now })
        .where(eq(userIdentities.id, known.identity.id));
      return { kind: 'signIn', user: known.user };
    }
    if (!id.email) throw badRequest('The provider gave no email address', undefined, 'OIDC_EMAIL_MISSING');
    const email = normalizeEmail(id.email);
    const existing = await findUserByEmail(tx, email);
    if (existing) {
      if (!existing.deletedAt) await mailLinkRequest(svc, tx, existing, id, now);
      return { kind: 'confirmationSent' };
    }
    const [user] = await tx
      .insert(users)
      .values({
        email,
        passwordHash: NO_PASSWORD,
        ...namesOf(id, email),
        role: svc.config.adminEmails.includes(email) ? 'admin' : 'user',
        status: id.emailVerified ? 'active' : 'pending_verification',
        emailVerified: id.emailVerified,
        verifiedAt: id.emailVerified ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!user) throw new AppError('INTERNAL_SERVER_ERROR', 'user not created');
    await linkIdentity(tx, user.id, id, now);
    if (!id.emailVerified) await issueVerification(svc, tx, user);
    return { kind: 'created', user, active: id.emailVerified };
  });
}

function namesOf(id: ProvenIdentity, email: string) {
  const parts = id.name?.trim().split(/\s+/) ?? [];
  const firstName = id.givenName?.trim() || parts[0] || email.split('@')[0] || 'Member';
  const lastName = id.familyName?.trim() || parts.slice(1).join(' ') || '';
  return { firstName: firstName.slice(0, 100), lastName: lastName.slice(0, 100) };
}

/**
 * The provider's email belongs to an account: its owner gets a link that links the identity once opened
 * and confirmed. An address the provider did not verify gets only a notice (someone may have typed it at
 * the provider): linking it would hand the account to whoever holds the identity.
 */
async function mailLinkRequest(
  svc: Services,
  tx: DbOrTx,
  user: typeof users.$inferSelect,
  id: ProvenIdentity,
  now: Date,
) {
  const providerName = providerNameOf(svc)(id.provider);
  const app = svc.config.appUrl.replace(/\/$/, '');
  if (!id.emailVerified) {
    const text = `Hello ${user.firstName},\n\nSomeone tried to sign in to Plenum with ${providerName} using your email address, which ${providerName} has not verified. Nothing was linked to your account. If this was you, verify the address at ${providerName} and try again.\n`;
    await enqueueEmail(tx, {
      to: user.email,
      subject: `Sign-in with ${providerName} not linked`,
      text,
      html: `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>')}</p>`,
    });
    return;
  }
  const token = newToken();
  await tx.insert(identityLinkRequests).values({
    tokenHash: hashToken(token),
    userId: user.id,
    provider: id.provider,
    subject: id.subject,
    email: id.email,
    expiresAt: new Date(now.getTime() + LINK_REQUEST_TTL_MS),
    createdAt: now,
  });
  const link = `${app}/link-identity?token=${encodeURIComponent(token)}`;
  const text = `Hello ${user.firstName},\n\nSomeone signed in with ${providerName} using your email address. To let this ${providerName} account sign in to your Plenum account, open this link and confirm:\n${link}\n\nThe link works once, for 24 hours. If this was not you, ignore this email: nothing is linked without it.\n`;
  await enqueueEmail(tx, {
    to: user.email,
    subject: `Link ${providerName} to your Plenum account?`,
    text,
    html: `<p>Hello ${escapeHtml(user.firstName)},</p><p>Someone signed in with ${escapeHtml(providerName)} using your email address. To let this ${escapeHtml(providerName)} account sign in to your Plenum account, open this link and confirm:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>The link works once, for 24 hours. If this was not you, ignore this email: nothing is linked without it.</p>`,
  });
}

/**
 * POST /auth/oidc/link/confirm { token }: the mailed link's owner confirms; the identity is linked to
 * their account. The token works once; unknown, used or expired: 400 OIDC_LINK_INVALID.
 */
export async function confirmIdentityLink(svc: Services, params: { token: string }) {
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const [request] = await tx
      .update(identityLinkRequests)
      .set({ usedAt: now })
      .where(
        and(eq(identityLinkRequests.tokenHash, hashToken(params.token)), isNull(identityLinkRequests.usedAt)),
      )
      .returning();
    if (!request || request.expiresAt <= now)
      throw badRequest('This link is invalid, used or expired', undefined, 'OIDC_LINK_INVALID');
    await lockAccount(tx, request.userId);
    await linkIdentity(
      tx,
      request.userId,
      { provider: request.provider, subject: request.subject, email: request.email, emailVerified: true },
      now,
    );
    await writeAudit(tx, {
      actorId: request.userId,
      action: 'identity.linked',
      targetId: request.userId,
      details: { provider: request.provider },
      at: now,
    });
    return { provider: request.provider, providerName: providerNameOf(svc)(request.provider) };
  });
}
