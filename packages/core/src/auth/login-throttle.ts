import { type DbOrTx, loginThrottle } from '@plenum/db';
import { eq, sql } from 'drizzle-orm';
import { normalizeEmail } from '../accounts/find-by-email';
import type { Services } from '../services';
import { AppError } from '../shared/errors';
import { hashToken } from '../shared/tokens';

/**
 * Password guessing per account, on top of the per-IP budget (docs/accounts.md, "Password guessing").
 * The first `freeFailures` wrong passwords for an email cost nothing; each further one locks that
 * email for twice as long as the last (1 s, 2 s, 4 s, …) up to `maxBackoffMs`. While locked, an
 * attempt is refused before any password is checked, so a distributed attacker gets one guess per
 * window, and it does not extend the lock. The lock is capped, forgotten a day after the last failure,
 * cleared by a successful sign-in, and lifted at once by a password reset (proof of the mailbox), so an
 * attacker cannot keep a victim out. Unknown emails are throttled exactly like known ones. The counters
 * live in the database: every instance shares them.
 */
export interface LoginThrottleSettings {
  freeFailures: number;
  maxBackoffMs: number;
}

const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/** the key is a hash: the table never holds the emails people typed */
const keyOf = (email: string) => hashToken(`login:${normalizeEmail(email)}`);

export function loginBackoffMs(failures: number, settings: LoginThrottleSettings): number {
  const over = failures - settings.freeFailures;
  if (over <= 0) return 0;
  return Math.min(settings.maxBackoffMs, 1000 * 2 ** Math.min(over - 1, 40));
}

export function throttled(retryAfterMs: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    'TOO_MANY_REQUESTS',
    `Too many failed sign-ins for this account; try again in ${seconds} s or reset your password`,
    {
      reason: 'LOGIN_THROTTLED',
      retryAfterSeconds: seconds,
    },
  );
}

/**
 * Refuses (429 LOGIN_THROTTLED with Retry-After) while the email is locked; otherwise says whether it
 * has failures on record (so a success deletes the row only when there is one: no write per sign-in).
 */
export async function assertLoginAllowed(
  svc: Pick<Services, 'db' | 'clock'>,
  params: { email: string },
): Promise<{ hasFailures: boolean }> {
  const { email } = params;
  const [row] = await svc.db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(eq(loginThrottle.key, keyOf(email)))
    .limit(1);
  const now = svc.clock.now().getTime();
  if (row?.lockedUntil && row.lockedUntil.getTime() > now) throw throttled(row.lockedUntil.getTime() - now);
  return { hasFailures: row !== undefined };
}

/** One more wrong password: counted atomically, so concurrent guesses on several instances all count. */
export async function recordLoginFailure(
  svc: Pick<Services, 'db' | 'clock' | 'config'>,
  params: { email: string },
): Promise<void> {
  const { email } = params;
  const settings = svc.config.loginThrottle;
  const now = svc.clock.now();
  const stale = new Date(now.getTime() - FORGET_AFTER_MS);
  const [row] = await svc.db
    .insert(loginThrottle)
    .values({ key: keyOf(email), failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.lastFailureAt} < ${stale.toISOString()}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginThrottle.failures });
  const wait = loginBackoffMs(row?.failures ?? 1, settings);
  if (wait > 0) {
    await svc.db
      .update(loginThrottle)
      .set({ lockedUntil: new Date(now.getTime() + wait) })
      .where(eq(loginThrottle.key, keyOf(email)));
  }
}

/** A successful sign-in or a password reset forgets the failures. */
export async function clearLoginThrottle(db: DbOrTx, email: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keyOf(email)));
}
