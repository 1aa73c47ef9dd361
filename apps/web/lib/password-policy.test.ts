import { describe, expect, it } from 'vitest';
import { defaultPasswordPolicy, passwordRules } from './password-policy';

describe('passwordRules', () => {
  it('labels each rule of the default policy and says which are met', () => {
    expect(passwordRules('correct')).toEqual([
      { code: 'minLength', label: 'At least 8 characters', met: false },
      { code: 'maxLength', label: 'At most 128 characters', met: true },
      { code: 'requireUppercase', label: 'An uppercase letter', met: false },
      { code: 'requireLowercase', label: 'A lowercase letter', met: true },
      { code: 'requireNumbers', label: 'A number', met: false },
    ]);
    expect(passwordRules('Correct-Horse-9').every((r) => r.met)).toBe(true);
  });

  it('follows the server’s policy once it is known', () => {
    const policy = {
      ...defaultPasswordPolicy,
      minLength: 12,
      requireNumbers: false,
      requireSpecialChars: true,
    };
    const rules = passwordRules('Correct Horse', policy);
    expect(rules.map((r) => r.label)).toEqual([
      'At least 12 characters',
      'At most 128 characters',
      'An uppercase letter',
      'A lowercase letter',
      'A special character',
    ]);
    expect(rules.filter((r) => !r.met).map((r) => r.code)).toEqual(['requireSpecialChars']);
  });

  it('starts from the documented defaults (docs/accounts.md)', () => {
    expect(defaultPasswordPolicy).toEqual({
      minLength: 8,
      maxLength: 128,
      requireUppercase: true,
      requireLowercase: true,
      requireNumbers: true,
      requireSpecialChars: false,
    });
  });
});
