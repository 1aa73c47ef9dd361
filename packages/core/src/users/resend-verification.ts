import { findUserByEmail } from '../accounts/find-by-email';
import { issueVerification } from '../accounts/verification';
import type { Services } from '../services';

/**
 * Always succeeds from the caller's point of view (202), whether or not the email is known or already
 * verified: the answer must not reveal which emails are registered.
 */
export async function resendVerification(svc: Services, params: { email: string }) {
  const user = await findUserByEmail(svc.db, params.email);
  if (!user || user.deletedAt || user.emailVerified || user.status === 'suspended') return;
  await svc.db.transaction((tx) => issueVerification(svc, tx, user));
}
