'use client';
import { useTranslations } from 'next-intl';
import { type AuditEntry, auditSentence } from '../../lib/admin/audit-words';

/** "alice@example.org suspended bob@example.org: spam" in the page's language (lib/admin/audit-words.ts). */
export function useAuditText() {
  const t = useTranslations('admin.audit');
  return (entry: AuditEntry) => {
    const s = auditSentence(entry);
    const actor = s.actor.kind === 'email' ? s.actor.email : t(`actor.${s.actor.kind}`);
    const target = 'name' in s.target ? s.target.name : t(`target.${s.target.kind}`);
    const status = s.status ? (t.has(`daoStatus.${s.status}`) ? t(`daoStatus.${s.status}`) : s.status) : '';
    const sentence = t(`actions.${s.key}`, { actor, target, status, action: entry.action });
    return entry.reason ? t('withReason', { sentence, reason: entry.reason }) : sentence;
  };
}
