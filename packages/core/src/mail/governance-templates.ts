import { escapeHtml } from './templates';

/**
 * Governance notification mails (docs/governance.md, "Notifications"): voting opened, a reminder before
 * the end, the outcome. One mail text serves every recipient: the only per-recipient part is the
 * unsubscribe token, which the set-based enqueue puts in place of UNSUBSCRIBE_TOKEN_PLACEHOLDER (it
 * survives HTML escaping and URL encoding unchanged).
 */

export const UNSUBSCRIBE_TOKEN_PLACEHOLDER = '__PLENUM_UNSUBSCRIBE_TOKEN__';

export type GovernanceMailKind = 'opened' | 'reminder' | 'outcome';

export interface OutcomeSummary {
  /** PASSED, REJECTED (or any later final status) */
  status: string;
  options: { option: string; votes: number; weight: string; percent: number }[];
  totalVotes: number;
  totalWeight: string;
  turnoutPercent: number;
  quorumPercent: number;
  quorumReached: boolean;
  winningOption: string | null;
}

export interface GovernanceMailInput {
  kind: GovernanceMailKind;
  appUrl: string;
  /** the API's public URL: the unsubscribe link points at it */
  apiUrl: string;
  proposalId: string;
  title: string;
  daoName: string;
  endTime: Date;
  now: Date;
  /** for 'outcome' */
  outcome?: OutcomeSummary;
}

/** "2031-01-02 15:04 UTC" */
export function formatUtc(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "in 3 days", "in 5 hours", "in 20 minutes", "2 hours ago": roughly, as a person says it */
export function relativeTime(at: Date, now: Date): string {
  const diff = at.getTime() - now.getTime();
  const ms = Math.abs(diff);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  let span: string;
  if (ms >= 2 * 86_400_000) span = plural(Math.round(ms / 86_400_000), 'day');
  else if (ms >= 2 * 3_600_000) span = plural(Math.round(ms / 3_600_000), 'hour');
  else if (ms >= 60_000) span = plural(Math.round(ms / 60_000), 'minute');
  else return diff >= 0 ? 'in less than a minute' : 'just now';
  return diff >= 0 ? `in ${span}` : `${span} ago`;
}

/** a subject line holds one line: user text with line breaks or runs of spaces is flattened */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function proposalLink(appUrl: string, proposalId: string) {
  return `${appUrl.replace(/\/$/, '')}/proposals/${encodeURIComponent(proposalId)}`;
}

export function unsubscribeLink(apiUrl: string, token: string) {
  return `${apiUrl.replace(/\/$/, '')}/notifications/unsubscribe?token=${token}`;
}

export function governanceEmail(input: GovernanceMailInput) {
  const link = proposalLink(input.appUrl, input.proposalId);
  const unsubscribe = unsubscribeLink(input.apiUrl, UNSUBSCRIBE_TOKEN_PLACEHOLDER);
  const title = oneLine(input.title);
  const dao = oneLine(input.daoName);
  const end = `${formatUtc(input.endTime)} (${relativeTime(input.endTime, input.now)})`;

  let subject: string;
  let lead: string;
  const facts: string[] = [];
  if (input.kind === 'opened') {
    subject = `[${dao}] Voting is open: ${title}`;
    lead = `Voting has opened on a proposal in ${dao}.`;
    facts.push(`Voting ends: ${end}`);
  } else if (input.kind === 'reminder') {
    subject = `[${dao}] Voting ends ${relativeTime(input.endTime, input.now)}: ${title}`;
    lead = `You have not voted yet on this proposal in ${dao}.`;
    facts.push(`Voting ends: ${end}`);
  } else {
    const o = input.outcome;
    const status = o?.status ?? 'CLOSED';
    const word = status === 'PASSED' ? 'Passed' : status === 'REJECTED' ? 'Rejected' : status;
    subject = `[${dao}] ${word}: ${title}`;
    lead = `Voting has ended on this proposal in ${dao}. Outcome: ${status}.`;
    facts.push(`Voting ended: ${end}`);
    if (o) {
      for (const opt of o.options)
        facts.push(
          `${opt.option}: ${opt.votes} vote${opt.votes === 1 ? '' : 's'}, weight ${opt.weight} (${opt.percent}%)`,
        );
      facts.push(`Votes: ${o.totalVotes}, weight ${o.totalWeight}, turnout ${o.turnoutPercent}%`);
      facts.push(
        `Quorum: ${o.quorumPercent}% (${o.quorumReached ? 'reached' : 'not reached'})${
          o.winningOption ? `; leading option: ${o.winningOption}` : ''
        }`,
      );
    }
  }

  const footer = `You get this mail because you are a member of ${dao} and email notifications are on in your Plenum preferences.`;
  const text = [
    lead,
    '',
    `Proposal: ${title}`,
    `DAO: ${dao}`,
    ...facts,
    '',
    `Open the proposal: ${link}`,
    '',
    '--',
    footer,
    `Stop these mails: ${unsubscribe}`,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>${e(lead)}</p>`,
    `<p><strong>${e(title)}</strong><br>DAO: ${e(dao)}</p>`,
    `<ul>${facts.map((f) => `<li>${e(f)}</li>`).join('')}</ul>`,
    `<p><a href="${e(link)}">Open the proposal</a></p>`,
    `<hr><p style="font-size:small;color:#666">${e(footer)} <a href="${e(unsubscribe)}">Stop these mails</a>.</p>`,
  ].join('');
  return { subject, text, html, link, unsubscribe };
}
