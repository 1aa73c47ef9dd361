import { describe, expect, it } from 'vitest';
import {
  formatUtc,
  governanceEmail,
  relativeTime,
  UNSUBSCRIBE_TOKEN_PLACEHOLDER,
} from './governance-templates';

const now = new Date('2031-01-01T00:00:00Z');
const base = {
  appUrl: 'https://plenum.example/',
  apiUrl: 'https://api.plenum.example',
  proposalId: 'p-1',
  title: 'Buy <script>alert(1)</script>\nnow',
  daoName: 'Garden & Co',
  endTime: new Date('2031-01-04T12:30:00Z'),
  now,
};

describe('governance mail templates', () => {
  it('says when, in UTC and relative to now', () => {
    expect(formatUtc(base.endTime)).toBe('2031-01-04 12:30 UTC');
    expect(relativeTime(base.endTime, now)).toBe('in 4 days');
    expect(relativeTime(new Date(now.getTime() + 5 * 3_600_000), now)).toBe('in 5 hours');
    expect(relativeTime(new Date(now.getTime() + 90 * 60_000), now)).toBe('in 90 minutes');
    expect(relativeTime(new Date(now.getTime() - 3 * 3_600_000), now)).toBe('3 hours ago');
    expect(relativeTime(new Date(now.getTime() + 10_000), now)).toBe('in less than a minute');
  });

  it('escapes user text in HTML, keeps subjects on one line, and leaves a place for the token', () => {
    const mail = governanceEmail({ ...base, kind: 'opened' });
    expect(mail.subject).toBe('[Garden & Co] Voting is open: Buy <script>alert(1)</script> now');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Buy &lt;script&gt;alert(1)&lt;/script&gt; now');
    expect(mail.html).toContain('Garden &amp; Co');
    expect(mail.link).toBe('https://plenum.example/proposals/p-1');
    expect(mail.text).toContain('Voting ends: 2031-01-04 12:30 UTC (in 4 days)');
    expect(mail.text).toContain(
      `https://api.plenum.example/notifications/unsubscribe?token=${UNSUBSCRIBE_TOKEN_PLACEHOLDER}`,
    );
    expect(mail.html).toContain(`unsubscribe?token=${UNSUBSCRIBE_TOKEN_PLACEHOLDER}`);
  });

  it('summarizes the outcome', () => {
    const mail = governanceEmail({
      ...base,
      kind: 'outcome',
      now: new Date('2031-01-04T13:30:00Z'),
      outcome: {
        status: 'REJECTED',
        options: [
          { option: 'For', votes: 1, weight: '1', percent: 33.33 },
          { option: 'Against', votes: 2, weight: '2', percent: 66.67 },
        ],
        totalVotes: 3,
        totalWeight: '3',
        turnoutPercent: 30,
        quorumPercent: 20,
        quorumReached: true,
        winningOption: 'Against',
      },
    });
    expect(mail.subject).toMatch(/^\[Garden & Co\] Rejected: /);
    expect(mail.text).toContain('Outcome: REJECTED.');
    expect(mail.text).toContain('Voting ended: 2031-01-04 12:30 UTC (60 minutes ago)');
    expect(mail.text).toContain('Against: 2 votes, weight 2 (66.67%)');
    expect(mail.text).toContain('Votes: 3, weight 3, turnout 30%');
    expect(mail.text).toContain('Quorum: 20% (reached); leading option: Against');
  });
});
