import { type DbOrTx, type PasskeyChallengePurpose, passkeyChallenges } from '@plenum/db';
import { and, eq, gt, lt, type SQL } from 'drizzle-orm';
import type { Services } from '../../services';
import { hashToken } from '../../shared/tokens';

/**
 * The relying party (docs/accounts.md, "Passkeys"): its id is APP_URL's host name and the only origin
 * accepted is APP_URL's origin, so a passkey made for one deployment signs in nowhere else.
 */
export function relyingParty(svc: Pick<Services, 'config'>) {
  const url = new URL(svc.config.appUrl);
  return { id: url.hostname, origin: url.origin, name: 'Plenum' };
}

/** how long a challenge waits for its answer (the browser's prompt times out first: TIMEOUT_MS) */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
export const PASSKEY_TIMEOUT_MS = 120_000;

/**
 * Stores a challenge handed out (by its hash: the stored value alone answers nothing) and sweeps the ones
 * spent by time, so the table stays the size of the prompts under way.
 */
export async function storeChallenge(
  svc: Pick<Services, 'db' | 'clock'>,
  row: {
    challenge: string;
    purpose: PasskeyChallengePurpose;
    userId?: string;
    mfaTokenHash?: string;
    name?: string;
  },
) {
  const now = svc.clock.now();
  await svc.db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now));
  await svc.db.insert(passkeyChallenges).values({
    challengeHash: hashToken(row.challenge),
    purpose: row.purpose,
    userId: row.userId ?? null,
    mfaTokenHash: row.mfaTokenHash ?? null,
    name: row.name ?? null,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
}

/**
 * the challenge an answer signed (from its clientDataJSON: base64url of a JSON object), or null when that
 * is not readable; only to find the stored challenge: the library checks the whole answer against it
 */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const { challenge } = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Spends the challenge an answer carries, once: of the same answer sent many times at once, one
 * statement deletes the row and the others find none. Returns the challenge and its row, or null when it
 * is unknown, spent, expired, or of another purpose or owner (`where`).
 */
export async function spendChallenge(
  svc: Pick<Services, 'clock'>,
  db: DbOrTx,
  clientDataJSON: string,
  purpose: PasskeyChallengePurpose,
  where?: SQL,
) {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) return null;
  const [row] = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challengeHash, hashToken(challenge)),
        eq(passkeyChallenges.purpose, purpose),
        gt(passkeyChallenges.expiresAt, svc.clock.now()),
        where,
      ),
    )
    .returning();
  return row ? { challenge, row } : null;
}
