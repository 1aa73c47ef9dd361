import {
  type DbOrTx,
  daos,
  type GovernanceNotificationKind,
  governanceNotifications,
  proposals,
  users,
} from '@plenum/db';
import { and, asc, eq, gt, isNull, lte, type SQL, sql } from 'drizzle-orm';
import {
  type GovernanceMailKind,
  governanceEmail,
  type OutcomeSummary,
  UNSUBSCRIBE_TOKEN_PLACEHOLDER,
  unsubscribeLink,
} from '../mail/governance-templates';
import type { Services } from '../services';
import { badRequest } from '../shared/errors';
import { rowsOf } from '../shared/prepared';
import { hashToken } from '../shared/tokens';
import { resultsOf } from './results';
import type { DaoRow, ProposalRow } from './rows';

/**
 * Governance mails (docs/governance.md, "Notifications"): "voting opened" when a proposal becomes ACTIVE,
 * a reminder PROPOSAL_REMINDER_HOURS before its end to eligible members none of whose wallets voted, and
 * the outcome when it is finalized. Recipients are users with a verified email, not suspended or deleted,
 * with `notifications.email` on, linked through a wallet to a member address: one mail per user however
 * many of their wallets are members.
 *
 * Each kind is enqueued by one set-based statement (recipients → governance_notifications → email_outbox),
 * in the caller's transaction: the unique index on (proposal, user, kind) makes every mail happen once
 * across instances and restarts, and the outbox rows exist exactly when the transition that caused them
 * does. The mail text is rendered once; the statement puts each recipient's unsubscribe token into it.
 */

const HOUR_MS = 3_600_000;
export const DEFAULT_PROPOSAL_REMINDER_HOURS = 24;
/** how long the unsubscribe link of a mail works */
export const UNSUBSCRIBE_TOKEN_TTL_MS = 90 * 24 * HOUR_MS;

export const proposalReminderHours = (svc: Pick<Services, 'config'>) =>
  svc.config.governance.proposalReminderHours ?? DEFAULT_PROPOSAL_REMINDER_HOURS;

/** a user who gets governance mails: verified, not suspended, not deleted, email notifications on */
const WANTS_MAIL = sql`u.email_verified and u.status <> 'suspended' and u.deleted_at is null
  and coalesce(u.preferences #> '{notifications,email}', 'true'::jsonb) <> 'false'::jsonb`;

async function enqueue(
  svc: Services,
  tx: DbOrTx,
  params: {
    kind: GovernanceMailKind & GovernanceNotificationKind;
    proposal: ProposalRow;
    dao: DaoRow;
    /** a query giving the member addresses to consider, as one column `address` */
    addresses: SQL;
    /** a further condition on the user `u` */
    extra?: SQL;
    outcome?: OutcomeSummary;
  },
): Promise<number> {
  const { proposal: p, dao } = params;
  const now = svc.clock.now();
  const apiUrl = svc.config.storage.publicUrl;
  const mail = governanceEmail({
    kind: params.kind,
    appUrl: svc.config.appUrl,
    apiUrl,
    proposalId: p.id,
    title: p.title,
    daoName: dao.name,
    endTime: p.endTime,
    now,
    ...(params.outcome ? { outcome: params.outcome } : {}),
  });
  const unsubscribeBase = unsubscribeLink(apiUrl, '');
  // The planner reads the CTEs' sizes from the members table's statistics, which lag right after a bulk
  // import of members: it then joins `claimed` back to `recipients` with a nested loop, quadratic in the
  // recipients (35,000 members: 140 s of CPU in one statement, far past DATABASE_STATEMENT_TIMEOUT). A
  // hash join is right at any size: nested loops are off for this one statement.
  await tx.execute(sql`set local enable_nestloop = off`);
  const result = await tx.execute(sql`
    with recipients as materialized (
      select d.user_id, d.email,
        replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') as token
      from (
        select distinct u.id as user_id, u.email
        from (${params.addresses}) a
        join wallets w on w.address = a.address
        join users u on u.id = w.user_id
        where ${WANTS_MAIL} ${params.extra ? sql`and ${params.extra}` : sql``}
      ) d
    ), claimed as (
      insert into governance_notifications (proposal_id, user_id, kind, token_hash, created_at)
      select ${p.id}::uuid, r.user_id, ${params.kind}::text,
        encode(sha256(convert_to(r.token, 'UTF8')), 'hex'), ${now.toISOString()}::timestamptz
      from recipients r
      on conflict (proposal_id, user_id, kind) do nothing
      returning user_id
    ), queued as (
      insert into email_outbox ("to", subject, text, html, headers)
      select r.email, ${mail.subject}::text,
        replace(${mail.text}::text, ${UNSUBSCRIBE_TOKEN_PLACEHOLDER}::text, r.token),
        replace(${mail.html}::text, ${UNSUBSCRIBE_TOKEN_PLACEHOLDER}::text, r.token),
        jsonb_build_object(
          'List-Unsubscribe', '<' || ${unsubscribeBase}::text || r.token || '>',
          'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click')
      from claimed c join recipients r on r.user_id = c.user_id
      returning 1
    )
    select count(*)::int as n from queued`);
  await tx.execute(sql`set local enable_nestloop = on`);
  const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  if (n) svc.log.debug({ proposalId: p.id, kind: params.kind, mails: n }, 'governance mails queued');
  return n;
}

const membersOf = (daoId: string) => sql`select address from dao_members where dao_id = ${daoId}::uuid`;

/**
 * "Voting opened", in the transaction that froze the electorate (creation or PENDING → ACTIVE), to the
 * DAO's members at that moment. Nothing for a proposal whose whole period passed before it was opened
 * (a server was down): its outcome mail follows in the same transaction.
 */
export async function notifyProposalOpened(svc: Services, tx: DbOrTx, p: ProposalRow, dao: DaoRow) {
  if (p.endTime <= svc.clock.now()) return 0;
  return enqueue(svc, tx, { kind: 'opened', proposal: p, dao, addresses: membersOf(dao.id) });
}

/** The outcome, in the finalizing transaction, to the DAO's members at that moment. */
export async function notifyProposalOutcome(svc: Services, tx: DbOrTx, p: ProposalRow, dao: DaoRow) {
  const o = await resultsOf(tx, p, { reveal: true });
  const outcome: OutcomeSummary = {
    status: p.status,
    options: o.options,
    totalVotes: o.totalVotes,
    totalWeight: o.totalWeight,
    turnoutPercent: o.turnoutPercent,
    quorumPercent: o.quorumPercent,
    quorumReached: o.quorumReached,
    winningOption: o.winningOption,
  };
  return enqueue(svc, tx, { kind: 'outcome', proposal: p, dao, addresses: membersOf(dao.id), outcome });
}

/**
 * Whether a proposal gets a reminder at all: only when its voting period is at least twice the reminder
 * time, so the reminder never comes closer to the "voting opened" mail than to the end.
 */
const longEnough = (h: number) =>
  sql`extract(epoch from (${proposals.endTime} - ${proposals.startTime})) * 1000 >= ${2 * h * HOUR_MS}`;

/**
 * The scheduler's reminder pass: open proposals ending within PROPOSAL_REMINDER_HOURS that have had no
 * reminder yet. Each is claimed by setting `reminder_sent_at` (UPDATE … WHERE reminder_sent_at IS NULL
 * RETURNING: with several instances one wins, the others find it set) in the transaction that enqueues its
 * mails. Recipients: the frozen electorate's addresses that are still members, whose user has voted on it
 * with none of their wallets. Returns how many proposals it reminded about.
 */
export async function sendDueReminders(svc: Services, limit = 50): Promise<number> {
  const hours = proposalReminderHours(svc);
  if (!(hours > 0)) return 0;
  const now = svc.clock.now();
  const windowEnd = new Date(now.getTime() + hours * HOUR_MS);
  const due = await svc.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(
      and(
        eq(proposals.status, 'ACTIVE'),
        isNull(proposals.reminderSentAt),
        gt(proposals.endTime, now),
        lte(proposals.endTime, windowEnd),
        longEnough(hours),
      ),
    )
    .orderBy(asc(proposals.endTime))
    .limit(limit);
  let reminded = 0;
  for (const { id } of due) {
    const done = await svc.db.transaction(async (tx) => {
      const [p] = await tx
        .update(proposals)
        .set({ reminderSentAt: now })
        .where(
          and(
            eq(proposals.id, id),
            eq(proposals.status, 'ACTIVE'),
            isNull(proposals.reminderSentAt),
            gt(proposals.endTime, now),
          ),
        )
        .returning();
      if (!p) return false;
      const [dao] = await tx.select().from(daos).where(eq(daos.id, p.daoId)).limit(1);
      await enqueue(svc, tx, {
        kind: 'reminder',
        proposal: p,
        dao: dao!,
        addresses: sql`select e.address from proposal_electorate e
          join dao_members m on m.dao_id = ${p.daoId}::uuid and m.address = e.address
          where e.proposal_id = ${p.id}::uuid`,
        extra: sql`not exists (select 1 from wallets vw
          join votes v on v.voter_address = vw.address and v.proposal_id = ${p.id}::uuid
          where vw.user_id = u.id)`,
      });
      return true;
    });
    if (done) reminded++;
  }
  return reminded;
}

const invalidToken = () =>
  badRequest(
    'Invalid or expired unsubscribe token',
    [{ path: 'token', message: 'invalid or expired', code: 'invalid_token' }],
    'INVALID_TOKEN',
  );

/** the user an unsubscribe token stands for; a 400 for anything else (unknown, expired, deleted user) */
async function userOfToken(db: DbOrTx, token: string, now: Date): Promise<string> {
  if (!/^[0-9a-f]{64}$/.test(token)) throw invalidToken();
  const [row] = await db
    .select({ userId: users.id, createdAt: governanceNotifications.createdAt, deletedAt: users.deletedAt })
    .from(governanceNotifications)
    .innerJoin(users, eq(users.id, governanceNotifications.userId))
    .where(eq(governanceNotifications.tokenHash, hashToken(token)))
    .limit(1);
  if (!row || row.deletedAt || row.createdAt.getTime() + UNSUBSCRIBE_TOKEN_TTL_MS <= now.getTime())
    throw invalidToken();
  return row.userId;
}

/** GET /notifications/unsubscribe: whether the token is good (the confirmation page changes nothing) */
export async function checkUnsubscribeToken(svc: Services, params: { token: string }) {
  await userOfToken(svc.db, params.token, svc.clock.now());
  return { valid: true as const };
}

/**
 * POST /notifications/unsubscribe: the token (from a governance mail) turns off `notifications.email`
 * of the user it was sent to. No session: the token is the credential. Doing it again changes nothing.
 */
export async function unsubscribeByToken(svc: Services, params: { token: string }) {
  const now = svc.clock.now();
  const userId = await userOfToken(svc.db, params.token, now);
  await svc.db
    .update(users)
    .set({
      preferences: sql`jsonb_set(coalesce(${users.preferences}, '{}'::jsonb), '{notifications}',
        coalesce(${users.preferences} -> 'notifications', '{}'::jsonb) || '{"email": false}'::jsonb)`,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
  return { unsubscribed: true as const, notifications: { email: false as const } };
}
