import { mfaChallenges, totpFactors, users } from '@plenum/db';
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import { serializeUser } from '../../accounts/serialize';
import type { Services } from '../../services';
import { forbidden, unauthorized } from '../../shared/errors';
import { executePrepared, rowsOf } from '../../shared/prepared';
import { hashToken } from '../../shared/tokens';
import { recordFailedSignIn } from '../activity';
import { newSession, type SessionClient } from '../sessions';
import { loginThrottleKey, reserveLoginAttempt } from '../throttle';
import { recoveryCodeHashOf } from './recovery';
import { totpStepFor } from './totp';

const invalidChallenge = () =>
  unauthorized('This sign-in has expired or is complete; sign in again', 'MFA_TOKEN_INVALID');
const invalidCode = () => unauthorized('The code is not correct or was used already', 'INVALID_MFA_CODE');

/**
 * The answer's effects as ONE statement (atomic on its own, one round trip, prepared): the code is taken
 * (`taken`: a TOTP step newer than the last accepted one, or an unused recovery code), and only then
 * the challenge spent, the throttle cleared, the session written and the sign-in time set. Concurrent
 * answers queue on the factor's or the code's row: the second finds it taken and changes nothing. The
 * sign-in's account event (docs/accounts.md, "Account activity") is one more step of the same statement.
 */
const answerStatement = (take: SQL, p: AnswerParams) => sql`
  with taken as (${take}),
  spent as (
    delete from mfa_challenges
    where token_hash = ${p.tokenHash} and expires_at > ${p.now}::timestamptz and exists (select 1 from taken)
    returning user_id, method
  ),
  cleared as (delete from login_throttle where key = ${p.throttleKey} and exists (select 1 from spent)),
  created as (
    insert into sessions (user_id, token_hash, expires_at, created_at, last_used_at, user_agent, ip)
    select ${p.userId}::uuid, ${p.sessionHash}, ${p.sessionExpires}::timestamptz, ${p.now}::timestamptz,
      ${p.now}::timestamptz, ${p.userAgent}, ${p.ip}
    where exists (select 1 from spent)
    returning id
  ),
  touched as (
    update users set last_login_at = ${p.now}::timestamptz where id = ${p.userId}::uuid and exists (select 1 from spent)
  ),
  logged as (
    insert into account_events (user_id, kind, detail, ip, user_agent, created_at)
    select user_id, 'sign_in', jsonb_build_object('method', 'mfa', 'firstFactor', method), ${p.ip}, ${p.userAgent},
      ${p.now}::timestamptz
    from spent
  )
  select (select count(*)::int from taken) as taken, (select count(*)::int from created) as created`;

interface AnswerParams {
  userId: string;
  tokenHash: string;
  throttleKey: string;
  now: string;
  sessionHash: string;
  sessionExpires: string;
  userAgent: string | null;
  ip: string | null;
}

const takeStep = (userId: string, step: number) => sql`
  update totp_factors set last_used_step = ${step}::bigint
  where user_id = ${userId}::uuid and confirmed_at is not null
    and (last_used_step is null or last_used_step < ${step}::bigint)
  returning user_id`;

const takeRecoveryCode = (userId: string, codeHash: string, now: string) => sql`
  update recovery_codes set used_at = ${now}::timestamptz
  where user_id = ${userId}::uuid and code_hash = ${codeHash} and used_at is null
  returning user_id`;

/**
 * The second step of a sign-in (docs/accounts.md, "Two-factor sign-in"): the `mfaToken` of a proven
 * first factor and a TOTP or recovery code. The attempt counts toward the account's sign-in throttle
 * before the code is checked (as a password does). A wrong code leaves the challenge for another try;
 * of two right answers at once exactly one gets a session. Three statements in all: the challenge with
 * its account and secret, the throttle's count, and the answer's effects.
 */
export async function completeMfaLogin(
  svc: Services,
  params: {
    mfaToken: string;
    code?: string | undefined;
    recoveryCode?: string | undefined;
    client?: SessionClient;
  },
) {
  const tokenHash = hashToken(params.mfaToken);
  const now = svc.clock.now();
  // the challenge, its account and the account's TOTP secret in one read
  const [found] = await svc.db
    .select({
      user: users,
      firstFactor: mfaChallenges.method,
      secret: totpFactors.secret,
      confirmedAt: totpFactors.confirmedAt,
    })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.id, mfaChallenges.userId))
    .leftJoin(totpFactors, eq(totpFactors.userId, mfaChallenges.userId))
    .where(and(eq(mfaChallenges.tokenHash, tokenHash), gt(mfaChallenges.expiresAt, now)))
    .limit(1);
  if (!found || found.user.deletedAt) throw invalidChallenge();
  const { user } = found;
  if (user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
  await reserveLoginAttempt(svc, { email: user.email });

  let take: SQL | null = null;
  let name = '';
  if (params.code) {
    const step =
      found.confirmedAt && found.secret ? totpStepFor(svc, found.secret, params.code.trim()) : null;
    if (step !== null) {
      take = takeStep(user.id, step);
      name = 'plenum_mfa_answer_totp';
    }
  } else if (params.recoveryCode) {
    const codeHash = recoveryCodeHashOf(svc.config.secretKey(), params.recoveryCode);
    if (codeHash) {
      take = takeRecoveryCode(user.id, codeHash, now.toISOString());
      name = 'plenum_mfa_answer_recovery';
    }
  }
  const failed = async () => {
    await recordFailedSignIn(svc.db, {
      userId: user.id,
      detail: { method: 'mfa', firstFactor: found.firstFactor },
      client: params.client,
      at: now,
    });
    return invalidCode();
  };
  if (!take) throw await failed();
  const session = newSession(svc, user.id, params.client);
  const [result] = rowsOf<{ taken: number; created: number }>(
    await executePrepared(
      svc.db,
      name,
      answerStatement(take, {
        userId: user.id,
        tokenHash,
        throttleKey: loginThrottleKey(user.email),
        now: now.toISOString(),
        sessionHash: session.row.tokenHash,
        sessionExpires: session.expiresAt.toISOString(),
        userAgent: session.row.userAgent,
        ip: session.row.ip,
      }),
    ),
  );
  if (!result?.taken) throw await failed();
  // the code was taken but the challenge was spent meanwhile (answered at once with another code)
  if (!result.created) throw invalidChallenge();
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    user: serializeUser({ ...user, lastLoginAt: now }),
  };
}
