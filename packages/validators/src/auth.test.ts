import { describe, expect, it } from 'vitest';
import { email, loginInput, passwordResetRequestInput } from './auth';
import { accepts, issuesOf, parsed } from './test-helpers';

describe('email', () => {
  it('is trimmed and lower-cased before it is checked', () => {
    expect(parsed(email, '  Ada.Lovelace@Example.ORG ')).toBe('ada.lovelace@example.org');
    expect(issuesOf(email, 'ada@')).toEqual([': must be a valid email address']);
  });

  it('is at most 254 characters', () => {
    const at = (n: number) => `${'a'.repeat(n - '@example.org'.length)}@example.org`;
    expect(at(254)).toHaveLength(254);
    expect(accepts(email, at(254))).toBe(true);
    expect(accepts(email, ` ${at(254)} `)).toBe(true); // trimmed first
    expect(accepts(email, at(255))).toBe(false);
  });
});

describe('sign-in inputs', () => {
  it('do not judge the email format at login (a wrong one is a plain 401, not a hint)', () => {
    expect(accepts(loginInput, { email: 'not an email', password: 'x' })).toBe(true);
    expect(accepts(loginInput, { email: 'a@example.org', password: 'x', remember: true })).toBe(false);
  });

  it('want a valid email for a password reset', () => {
    expect(accepts(passwordResetRequestInput, { email: 'ada@example.org' })).toBe(true);
    expect(accepts(passwordResetRequestInput, { email: 'ada' })).toBe(false);
  });
});
