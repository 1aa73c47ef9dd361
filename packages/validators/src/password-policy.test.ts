import { describe, expect, it } from 'vitest';
import { type PasswordPolicy, passwordPolicySchema, passwordRuleResults } from './password-policy';

const policy = (overrides: Partial<PasswordPolicy> = {}): PasswordPolicy => ({
  minLength: 8,
  maxLength: 128,
  requireUppercase: true,
  requireLowercase: true,
  requireNumbers: true,
  requireSpecialChars: false,
  ...overrides,
});
const unmet = (password: string, p = policy()) =>
  passwordRuleResults(password, p)
    .filter((r) => !r.met)
    .map((r) => r.code);

describe('passwordRuleResults', () => {
  it('lists the length rules always and the character rules only when switched on', () => {
    expect(passwordRuleResults('x', policy()).map((r) => r.code)).toEqual([
      'minLength',
      'maxLength',
      'requireUppercase',
      'requireLowercase',
      'requireNumbers',
    ]);
    const off = policy({ requireUppercase: false, requireLowercase: false, requireNumbers: false });
    expect(passwordRuleResults('x', off).map((r) => r.code)).toEqual(['minLength', 'maxLength']);
    expect(passwordRuleResults('x', policy({ requireSpecialChars: true })).at(-1)?.code).toBe(
      'requireSpecialChars',
    );
  });

  it('says which rules a password meets', () => {
    expect(unmet('Correct9')).toEqual([]);
    expect(unmet('correct9')).toEqual(['requireUppercase']);
    expect(unmet('CORRECT9')).toEqual(['requireLowercase']);
    expect(unmet('Correcto')).toEqual(['requireNumbers']);
    expect(unmet('')).toEqual(['minLength', 'requireUppercase', 'requireLowercase', 'requireNumbers']);
  });

  it('counts characters, not UTF-16 units, at both length bounds', () => {
    expect(unmet('Aa1xxxxx')).toEqual([]); // exactly 8
    expect(unmet('Aa1xxxx')).toEqual(['minLength']);
    // 7 characters but 11 UTF-16 units
    expect(unmet('Aa1😀😀😀😀')).toEqual(['minLength']);
    const p = policy({ maxLength: 10 });
    expect(unmet('Aa1xxxxxxx', p)).toEqual([]);
    expect(unmet('Aa1xxxxxxxx', p)).toEqual(['maxLength']);
  });

  it('knows letters and digits of every script', () => {
    expect(unmet('Ärger straße ٣')).toEqual([]); // Ä upper, ß lower, Arabic-Indic three
  });

  it('counts as special anything that is not a letter, a digit or white space', () => {
    const p = policy({ requireSpecialChars: true });
    for (const pw of ['Correct9!', 'Correct9_', 'Correct9€']) expect(unmet(pw, p)).toEqual([]);
    for (const pw of ['Correct9 x', 'Correct9ж']) expect(unmet(pw, p)).toEqual(['requireSpecialChars']);
  });

  it('words each rule with the policy’s numbers, for the field password', () => {
    const results = passwordRuleResults('', policy({ minLength: 12, maxLength: 64 }));
    expect(results.slice(0, 2)).toEqual([
      {
        path: 'password',
        code: 'minLength',
        message: 'must be at least 12 characters',
        params: { minimum: 12 },
        met: false,
      },
      {
        path: 'password',
        code: 'maxLength',
        message: 'must be at most 64 characters',
        params: { maximum: 64 },
        met: true,
      },
    ]);
  });
});

describe('passwordPolicySchema', () => {
  it('reads a policy with whole-number lengths', () => {
    expect(passwordPolicySchema.safeParse(policy()).success).toBe(true);
    expect(passwordPolicySchema.safeParse(policy({ minLength: 8.5 })).success).toBe(false);
  });
});
