import { isUniqueViolation, users } from '@plenum/db';
import { findUserByEmail, normalizeEmail } from '../accounts/find-by-email';
import { serializeUser } from '../accounts/serialize';
import { issueVerification } from '../accounts/verification';
import { hashPassword } from '../auth/password/hash';
import { assertPasswordPolicy } from '../auth/password/policy';
import type { Services } from '../services';
import { AppError, badRequest, conflict } from '../shared/errors';

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
