import { describe, expect, it } from 'vitest';
import { type AuditEntry, auditSentence } from './audit-words';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: '6f1c3f4e-0000-4000-8000-000000000001',
  actorId: '6f1c3f4e-0000-4000-8000-000000000002',
  actorEmail: 'alice@example.org',
  action: 'user.suspend',
  targetType: 'user',
  targetId: '6f1c3f4e-0000-4000-8000-000000000003',
  targetEmail: 'bob@example.org',
  targetName: null,
  reason: 'spam',
  details: null,
  createdAt: '2026-11-24T19:00:00.000Z',
  ...over,
});

describe('auditSentence', () => {
  it('names who and whom by email for user actions', () => {
    expect(auditSentence(entry({}))).toEqual({
      key: 'user_suspend',
      actor: { kind: 'email', email: 'alice@example.org' },
      target: { kind: 'email', name: 'bob@example.org' },
      status: null,
    });
  });

  it('names a DAO by its name and a status change by its new status', () => {
    const s = auditSentence(
      entry({
        action: 'dao.set_status',
        targetType: 'dao',
        targetEmail: null,
        targetName: 'Guild',
        details: { from: 'ACTIVE', to: 'INACTIVE' },
      }),
    );
    expect(s).toMatchObject({
      key: 'dao_set_status',
      target: { kind: 'dao', name: 'Guild' },
      status: 'INACTIVE',
    });
  });

  it('falls back to words, never to ids: the command line, unknown targets and actions', () => {
    expect(
      auditSentence(entry({ actorId: null, actorEmail: null, action: 'user.grant_admin' })),
    ).toMatchObject({
      key: 'user_grant_admin',
      actor: { kind: 'operator' },
    });
    expect(auditSentence(entry({ targetEmail: null })).target).toEqual({ kind: 'unknownUser' });
    expect(auditSentence(entry({ targetType: 'dao', targetName: null })).target).toEqual({
      kind: 'unknownDao',
    });
    expect(auditSentence(entry({ action: 'user.rename' })).key).toBe('other');
  });
});
