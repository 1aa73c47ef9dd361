import { findUserByEmail } from '../../accounts/find-by-email';
import type { Services } from '../../services';
import { forbidden, unauthorized } from '../../shared/errors';
import { recordFailedSignIn } from '../activity';
import { finishFirstFactor } from '../second-factor';
import type { SessionClient } from '../sessions';
import { clearLoginThrottle, reserveLoginAttempt } from '../throttle';
import { checkingPasswords } from './gate';
import { dummyPasswordHash, hasPassword, verifyPassword } from './hash';

const invalidCredentials = () => unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');

/**
 * Unknown email and wrong password answer the same 401 after the same argon2 work; both count toward
 * the email's throttle, counted before any password is verified (docs/accounts.md, "Password guessing"),
 * and the check waits its turn in the client's share of the password checks (gate.ts). An account
 * without a password is checked against the dummy hash like an unknown email, and refused the same way.
 */
export async function login(
  svc: Services,
  params: { email: string; password: string; client?: SessionClient },
) {
  const user = await findUserByEmail(svc.db, params.email);
  const hash = user && hasPassword(user) ? user.passwordHash : await dummyPasswordHash();
  const ok = await checkingPasswords(svc, params.client?.ip ?? null, async () => {
    // counted as a failure before the check (a right password clears it below)
    await reserveLoginAttempt(svc, { email: params.email });
    return verifyPassword(hash, params.password);
  });
  if (!user || !ok || !hasPassword(user) || user.deletedAt) {
    // the same statement for an unknown email, which writes nothing (docs/accounts.md, "Account activity")
    await recordFailedSignIn(svc.db, {
      userId: user && !user.deletedAt ? user.id : null,
      detail: { method: 'password' },
      client: params.client,
      at: svc.clock.now(),
    });
    throw invalidCredentials();
  }
  await clearLoginThrottle(svc.db, params.email);
  if (user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
  return finishFirstFactor(svc, user, 'password', params.client);
}
