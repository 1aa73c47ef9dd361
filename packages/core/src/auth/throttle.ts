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
 * window, and it does not extend the lock. Each attempt is counted before its password is checked, in
 * the same statement that reads the lock (`reserveLoginAttempt`), so concurrency cannot get around it. The lock is capped, forgotten a day after the last failure,
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
export const loginThrottleKey = (email: string) => hashToken(`login:${normalizeEmail(email)}`);
const keyOf = loginThrottleKey;

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
 * Reserves one password check for this email, or refuses it (429 LOGIN_THROTTLED with Retry-After) while
 * the email is locked. The check and the count are one statement: the attempt is counted as a failure
 * BEFORE its password is verified, and the lock its count earns is set in the same upsert, so however
 * many attempts arrive at once, on however many instances, at most `freeFailures` + 1 of them are ever
 * checked before the lock refuses the rest (row locks serialise the upserts). A right password then
 * clears the row (`clearLoginThrottle`); a wrong one has nothing left to record. A refused attempt
 * changes nothing, so it does not extend the lock.
 */
export async function reserveLoginAttempt(
  svc: Pick<Services, 'db' | 'clock' | 'config'>,
  params: { email: string },
): Promise<void> {
  const settings = svc.config.loginThrottle;
  const now = svc.clock.now();
  const at = sql`${now.toISOString()}::timestamptz`;
  const stale = sql`${new Date(now.getTime() - FORGET_AFTER_MS).toISOString()}::timestamptz`;
  const t = loginThrottle;
  const key = keyOf(params.email);
  // the count after this attempt, and the lock it earns (loginBackoffMs, in SQL)
  const failures = sql`(case when ${t.lastFailureAt} < ${stale} then 1 else ${t.failures} + 1 end)`;
  const over = sql`(${failures} - ${settings.freeFailures}::int)`;
  const lock = sql`case when ${over} > 0 then ${at} + make_interval(secs => least(${settings.maxBackoffMs}::float8, 1000 * power(2, least(${over} - 1, 40))) / 1000) end`;
  const first = loginBackoffMs(1, settings);
  const reserved = await svc.db
    .insert(t)
    .values({
      key,
      failures: 1,
      lastFailureAt: now,
      lockedUntil: first ? new Date(now.getTime() + first) : null,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: { failures, lastFailureAt: now, lockedUntil: lock },
      setWhere: sql`${t.lockedUntil} is null or ${t.lockedUntil} <= ${at}`,
    })
    .returning({ failures: t.failures });
  if (reserved.length) return;
  // locked: nothing was written; say until when
  const [row] = await svc.db.select({ lockedUntil: t.lockedUntil }).from(t).where(eq(t.key, key)).limit(1);
  throw throttled((row?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime());
}

/** A successful sign-in or a password reset forgets the failures. */
export async function clearLoginThrottle(db: DbOrTx, email: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keyOf(email)));
}
