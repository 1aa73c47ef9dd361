/** One audit entry as the API returns it (adminUsers.auditLog). */
export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string;
  targetEmail: string | null;
  targetName: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  createdAt: string;
}

/** the actions the server writes (packages/core), each a sentence in `admin.audit.actions` */
const KNOWN = new Set([
  'user.suspend',
  'user.reactivate',
  'user.delete',
  'user.grant_admin',
  'user.revoke_admin',
  'user.sessions_revoke',
  'user.password_reset_sent',
  'dao.approve',
  'dao.set_status',
  'wallet.unlinked',
]);

/**
 * The parts of an audit sentence: which message (`admin.audit.actions.<key>`) and the names to put in it.
 * Who and whom are emails (or the DAO's name) when the server knows them; an entry without a name
 * falls back to words ("an operator at the command line", "a deleted user"), never to a UUID.
 */
export function auditSentence(entry: AuditEntry): {
  key: string;
  actor: { kind: 'email'; email: string } | { kind: 'operator' } | { kind: 'unknown' };
  target: { kind: 'email' | 'dao'; name: string } | { kind: 'unknownUser' | 'unknownDao' | 'unknown' };
  status: string | null;
} {
  const key = KNOWN.has(entry.action) ? entry.action.replace('.', '_') : 'other';
  const actor = entry.actorEmail
    ? ({ kind: 'email', email: entry.actorEmail } as const)
    : entry.actorId
      ? ({ kind: 'unknown' } as const)
      : ({ kind: 'operator' } as const);
  const target =
    entry.targetType === 'user'
      ? entry.targetEmail
        ? ({ kind: 'email', name: entry.targetEmail } as const)
        : ({ kind: 'unknownUser' } as const)
      : entry.targetType === 'dao'
        ? entry.targetName
          ? ({ kind: 'dao', name: entry.targetName } as const)
          : ({ kind: 'unknownDao' } as const)
        : ({ kind: 'unknown' } as const);
  const to = entry.details?.to;
  return { key, actor, target, status: typeof to === 'string' ? to : null };
}
