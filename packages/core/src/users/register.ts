import { isUniqueViolation, users, verificationTokens } from '@plenum/db';
import { findUserByEmail, normalizeEmail } from '../accounts/find-by-email';
import { serializeUser } from '../accounts/serialize';
import { hashPassword } from '../auth/password/hash';
import { assertPasswordPolicy } from '../auth/password/policy';
import { enqueueEmail } from '../mail/outbox';
import { verificationEmail } from '../mail/templates';
import type { Services } from '../services';
import { AppError, badRequest, conflict } from '../shared/errors';
import { hashToken, newToken } from '../shared/tokens';

export interface RegisterParams {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  organizationName?: string | undefined;
  acceptedTerms: boolean;
}

export async function registerUser(svc: Services, params: RegisterParams) {
  // terms exist only where the operator names them (docs/accounts.md, "Terms of use")
  const terms = svc.config.termsUrl ?? null;
  if (terms && params.acceptedTerms !== true) {
    throw badRequest('The terms must be accepted', [
      { path: 'acceptedTerms', message: 'must be true', code: 'terms_not_accepted' },
    ]);
  }
  assertPasswordPolicy(params.password, svc.config.passwordPolicy);
  const email = normalizeEmail(params.email);
  if (await findUserByEmail(svc.db, email)) throw conflict('Email already registered', 'EMAIL_TAKEN');

  const passwordHash = await hashPassword(params.password);
  const now = svc.clock.now();
  const role = svc.config.adminEmails.includes(email) ? 'admin' : 'user';
  try {
    return await svc.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          firstName: params.firstName.trim(),
          lastName: params.lastName.trim(),
          organizationName: params.organizationName?.trim() || null,
          role,
          termsAcceptedAt: terms ? now : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!user) throw new AppError('INTERNAL_SERVER_ERROR', 'user not created');
      await issueVerification(svc, tx, user);
      return serializeUser(user);
    });
  } catch (err) {
    // two registrations of one email at once: the unique index decides
    if (isUniqueViolation(err)) throw conflict('Email already registered', 'EMAIL_TAKEN');
    throw err;
  }
}

/** A new verification token, mailed through the outbox in the same transaction. */
export async function issueVerification(
  svc: Services,
  tx: Parameters<typeof enqueueEmail>[0],
  user: { id: string; email: string; firstName: string },
) {
  const token = newToken();
  const expiresAt = new Date(svc.clock.now().getTime() + svc.config.verificationTokenTtlMs);
  await tx.insert(verificationTokens).values({ userId: user.id, tokenHash: hashToken(token), expiresAt });
  const mail = verificationEmail({
    appUrl: svc.config.appUrl,
    firstName: user.firstName,
    token,
    expiresInHours: Math.round(svc.config.verificationTokenTtlMs / 3_600_000),
  });
  await enqueueEmail(tx, { to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
}
