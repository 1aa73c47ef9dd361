import { describe, expect, it } from 'vitest';
import { mailWarning } from '../src/config';

/** What the server logs at start (warn) when mail goes nowhere (docs/operations.md, "Email"). */
describe('the start-up warning about mail', () => {
  it('says mail is only kept in the outbox on a local trial, and that nobody reads it on a deployment', () => {
    const local = mailWarning({ RESEND_API_KEY: undefined, APP_URL: 'http://localhost:3000' });
    expect(local).toContain('No email provider');
    expect(local).toContain('RESEND_API_KEY');
    const deployed = mailWarning({ RESEND_API_KEY: undefined, APP_URL: 'https://plenum.example.org' });
    expect(deployed).toContain('nobody but an admin can read it');
    expect(deployed).toContain('RESEND_API_KEY');
    expect(mailWarning({ RESEND_API_KEY: 're_x', APP_URL: 'https://plenum.example.org' })).toBeNull();
  });
});
