import { describe, expect, it } from 'vitest';
import { describeDuration, passwordResetEmail } from './templates';

describe('mail templates', () => {
  it('links the reset page of the web app with the token, and says how long it works', () => {
    const mail = passwordResetEmail({
      appUrl: 'https://plenum.example/',
      firstName: '<Ada>',
      token: 'abc-_123',
      expiresInMs: 3_600_000,
    });
    expect(mail.link).toBe('https://plenum.example/reset-password?token=abc-_123');
    expect(mail.text).toContain(mail.link);
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.html).toContain('&lt;Ada&gt;');
    expect(mail.html).not.toContain('<Ada>');
  });

  it('says durations the way people do', () => {
    expect(describeDuration(3_600_000)).toBe('1 hour');
    expect(describeDuration(2 * 3_600_000)).toBe('2 hours');
    expect(describeDuration(30 * 60_000)).toBe('30 minutes');
    expect(describeDuration(90 * 60_000)).toBe('90 minutes');
    expect(describeDuration(86_400_000)).toBe('1 day');
    expect(describeDuration(10_000)).toBe('1 minute');
  });
});
