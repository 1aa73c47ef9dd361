import { describe, expect, it } from 'vitest';
import { daoDecisionEmail } from './dao-decision-template';

describe('the DAO decision mail', () => {
  it('tells the owner of an approval, with a link to the DAO', () => {
    const mail = daoDecisionEmail({
      appUrl: 'https://plenum.example/',
      daoId: 'd-1',
      daoName: 'Garden\n  club',
      decision: 'approved',
    });
    expect(mail.subject).toBe('Your DAO Garden club is approved');
    expect(mail.link).toBe('https://plenum.example/daos/d-1');
    expect(mail.text).toContain(mail.link);
    expect(mail.text).not.toContain('Reason');
  });

  it('gives the reason of a rejection, escaped in the HTML', () => {
    const mail = daoDecisionEmail({
      appUrl: 'https://plenum.example',
      daoId: 'd-2',
      daoName: '<b>Pool</b>',
      decision: 'rejected',
      reason: 'Spam & <script>',
    });
    expect(mail.subject).toBe('Your DAO <b>Pool</b> was not approved');
    expect(mail.text).toContain('Reason: Spam & <script>');
    expect(mail.html).toContain('Reason: Spam &amp; &lt;script&gt;');
    expect(mail.html).toContain('&lt;b&gt;Pool&lt;/b&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Pool');
  });
});
