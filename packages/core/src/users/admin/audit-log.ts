import { auditLog, daos, users } from '@plenum/db';
import { auditBoundInstant } from '@plenum/validators';
import { and, count, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Services } from '../../services';
import { isUuid } from '../../shared/ids';
import { offsetOf, type Page, paginationOf } from '../../shared/pagination';

/** the audit log's filters (docs/users.md, "Administration"), checked by the validators */
export interface AuditFilters {
  action?: string | undefined;
  /** the actor's user id or email */
  actor?: string | undefined;
  /** the target's id, or a target user's email */
  target?: string | undefined;
  /** the former name of `target` */
  targetId?: string | undefined;
  /** an ISO instant or a day (YYYY-MM-DD); `to` as a day includes the whole day */
  from?: string | undefined;
  to?: string | undefined;
}

export type AuditLogParams = Page & AuditFilters;

const userIdByEmail = (email: string) =>
  sql`(select ${users.id} from ${users} where ${users.email} = ${email.toLowerCase()} limit 1)`;

/** the filters as conditions; an actor or target given by an email that names nobody matches nothing */
export function auditConditions(f: AuditFilters): SQL[] {
  const where: SQL[] = [];
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.actor)
    where.push(
      isUuid(f.actor) ? eq(auditLog.actorId, f.actor) : eq(auditLog.actorId, userIdByEmail(f.actor)),
    );
  const target = f.target ?? f.targetId;
  if (target)
    where.push(
      target.includes('@')
        ? eq(auditLog.targetId, sql`(${userIdByEmail(target)})::text`)
        : eq(auditLog.targetId, target),
    );
  if (f.from) where.push(gte(auditLog.createdAt, auditBoundInstant(f.from, false).at));
  if (f.to) {
    const to = auditBoundInstant(f.to, true);
    where.push(to.exclusive ? lt(auditLog.createdAt, to.at) : lte(auditLog.createdAt, to.at));
  }
  return where;
}

/** ids of one target type on this page (audit target ids are text: only UUIDs can name a row) */
const idsOf = (rows: { entry: { targetType: string; targetId: string } }[], type: string) => [
  ...new Set(
    rows.filter((r) => r.entry.targetType === type && isUuid(r.entry.targetId)).map((r) => r.entry.targetId),
  ),
];

type AuditRow = { entry: typeof auditLog.$inferSelect; actorEmail: string | null };

/** a page of rows as entries: the target user's email or the DAO's name read for this page only */
export async function auditEntries(svc: Pick<Services, 'db'>, rows: AuditRow[]) {
  const userIds = idsOf(rows, 'user');
  const daoIds = idsOf(rows, 'dao');
  const [targetUsers, targetDaos] = await Promise.all([
    userIds.length
      ? svc.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds))
      : [],
    daoIds.length
      ? svc.db.select({ id: daos.id, name: daos.name }).from(daos).where(inArray(daos.id, daoIds))
      : [],
  ]);
  const emails = new Map(targetUsers.map((u) => [u.id, u.email]));
  const names = new Map(targetDaos.map((d) => [d.id, d.name]));
  return rows.map(({ entry, actorEmail }) => ({
    id: entry.id,
    actorId: entry.actorId,
    actorEmail,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    targetEmail: entry.targetType === 'user' ? (emails.get(entry.targetId) ?? null) : null,
    targetName: entry.targetType === 'dao' ? (names.get(entry.targetId) ?? null) : null,
    reason: entry.reason,
    details: entry.details,
    createdAt: entry.createdAt.toISOString(),
  }));
}

export type AuditEntry = Awaited<ReturnType<typeof auditEntries>>[number];

/** the rows of the log matching `where`, newest first, with the actor's email */
export const auditRows = (svc: Pick<Services, 'db'>, where: SQL | undefined) =>
  svc.db
    .select({ entry: auditLog, actorEmail: users.email, at: sql<string>`${auditLog.createdAt}::text` })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .$dynamic();

/**
 * Admin: the audit log, newest first, filtered by action, actor, target and time: who (id and email), what,
 * whom (id, and the user's email or the DAO's name, so the page can say it in words), when, why.
 */
export async function listAuditLog(svc: Services, params: AuditLogParams) {
  const conditions = auditConditions(params);
  const filter = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    auditRows(svc, filter).limit(params.limit).offset(offsetOf(params)),
    svc.db.select({ n: count() }).from(auditLog).where(filter),
  ]);
  return { items: await auditEntries(svc, rows), pagination: paginationOf(params, total?.n ?? 0) };
}
