import { auditLog, daos, users } from '@plenum/db';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Services } from '../../services';
import { isUuid } from '../../shared/ids';
import { offsetOf, type Page, paginationOf } from '../../shared/pagination';

export interface AuditLogParams extends Page {
  action?: string | undefined;
  targetId?: string | undefined;
}

/** ids of one target type on this page (audit target ids are text: only UUIDs can name a row) */
const idsOf = (rows: { entry: { targetType: string; targetId: string } }[], type: string) => [
  ...new Set(
    rows.filter((r) => r.entry.targetType === type && isUuid(r.entry.targetId)).map((r) => r.entry.targetId),
  ),
];

/**
 * Admin: the audit log, newest first: who (id and email), what, whom (id, and the user's email or the
 * DAO's name, so the page can say it in words), when, why. The names are read for this page only.
 */
export async function listAuditLog(svc: Services, params: AuditLogParams) {
  const where: SQL[] = [];
  if (params.action) where.push(eq(auditLog.action, params.action));
  if (params.targetId) where.push(eq(auditLog.targetId, params.targetId));
  const filter = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    svc.db
      .select({ entry: auditLog, actorEmail: users.email })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(filter)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(params.limit)
      .offset(offsetOf(params)),
    svc.db.select({ n: count() }).from(auditLog).where(filter),
  ]);
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
  return {
    items: rows.map(({ entry, actorEmail }) => ({
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
    })),
    pagination: paginationOf(params, total?.n ?? 0),
  };
}
