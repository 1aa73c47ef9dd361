import { auditLog, users } from '@plenum/db';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Services } from '../../services';
import { offsetOf, type Page, paginationOf } from '../../shared/pagination';

export interface AuditLogParams extends Page {
  action?: string | undefined;
  targetId?: string | undefined;
}

/** Admin: the audit log, newest first: who (id and email), what, whom, when, why. */
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
  return {
    items: rows.map(({ entry, actorEmail }) => ({
      id: entry.id,
      actorId: entry.actorId,
      actorEmail,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      reason: entry.reason,
      details: entry.details,
      createdAt: entry.createdAt.toISOString(),
    })),
    pagination: paginationOf(params, total?.n ?? 0),
  };
}
