/** One audit row per administrative action (docs/users.md, "Administration"): users and governance both write them. */
import { auditLog, type DbOrTx } from '@plenum/db';

export interface AuditEntryParams {
  /** the administrator; null for an operator at the command line */
  actorId: string | null;
  action: string;
  targetType?: string;
  targetId: string;
  reason?: string | null | undefined;
  details?: Record<string, unknown> | undefined;
  at: Date;
}

/** One audit row, written with the caller's transaction so the action and its record commit together. */
export async function writeAudit(tx: DbOrTx, entry: AuditEntryParams) {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType ?? 'user',
    targetId: entry.targetId,
    reason: entry.reason ?? null,
    details: entry.details ?? null,
    createdAt: entry.at,
  });
}
