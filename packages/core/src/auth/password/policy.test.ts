import { describe, expect, it } from 'vitest';
import { defaultPasswordPolicy } from '../../config';
import { checkPasswordPolicy } from './policy';

const codes = (pw: string, policy = defaultPasswordPolicy) =>
  checkPasswordPolicy(pw, policy).map((f) => f.code);

describe('password policy', () => {
  it('accepts a password meeting every default rule', () => {
    expect(codes('Abcdefg1')).toEqual([]);
  });
  it('names every failed rule at once', () => {
    expect(codes('abc')).toEqual(['minLength', 'requireUppercase', 'requireNumbers']);
  });
  it('enforces the maximum length', () => {
    expect(codes(`A1${'a'.repeat(127)}`)).toEqual(['maxLength']);
  });
  it('counts characters, not UTF-16 units, and knows non-Latin letters', () => {
    expect(codes('Ωmega-ß1')).toEqual([]);
    expect(codes('😀😀😀😀😀😀😀A1a').length).toBe(0);
  });
  it('applies optional rules only when switched on', () => {
    const strict = {
      ...defaultPasswordPolicy,
      requireSpecialChars: true,
      requireUppercase: false,
      minLength: 4,
    };
    expect(codes('abcd1', strict)).toEqual(['requireSpecialChars']);
    expect(codes('abc1!', strict)).toEqual([]);
  });
});
