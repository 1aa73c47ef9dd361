import { escapeHtml } from './templates';

/**
 * The mail to a DAO's owner when an admin approves or rejects it (docs/governance.md, "Approval"): an
 * account mail about the owner's own DAO, so it has no unsubscribe link.
 */
export function daoDecisionEmail(params: {
  appUrl: string;
  daoId: string;
  daoName: string;
  decision: 'approved' | 'rejected';
  /** the admin's reason, for a rejection */
  reason?: string | null | undefined;
}) {
  const link = `${params.appUrl.replace(/\/$/, '')}/daos/${encodeURIComponent(params.daoId)}`;
  const name = params.daoName.replace(/\s+/g, ' ').trim();
  const approved = params.decision === 'approved';
  const subject = approved ? `Your DAO ${name} is approved` : `Your DAO ${name} was not approved`;
  const lead = approved
    ? `An administrator approved your DAO ${name}. It is ACTIVE now: members can be added and proposals created.`
    : `An administrator rejected your DAO ${name}. It stays INACTIVE.`;
  const reason = !approved && params.reason ? `Reason: ${params.reason}` : null;
  const text = [lead, ...(reason ? ['', reason] : []), '', `Open the DAO: ${link}`, ''].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>${e(lead)}</p>`,
    reason ? `<p>${e(reason)}</p>` : '',
    `<p><a href="${e(link)}">Open the DAO</a></p>`,
  ].join('');
  return { subject, text, html, link };
}
