import { describe, expect, it } from 'vitest';
import { accepts, issuesOf, parsed } from './test-helpers';
import {
  birthDate,
  languageTag,
  PHONE_PATTERN,
  preferencesPatch,
  registerInput,
  registrationsInput,
  socialLinksSchema,
  suspendUserInput,
  updateUserInput,
} from './users';

const USER_ID = '0b7c5c1e-8a6f-4d6e-9a57-3d2f6a0e9b11';
const update = (patch: Record<string, unknown>) => ({ id: USER_ID, ...patch });
const links = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`site${i}`, 'https://x.org']));
/** the issues of a social-links map, as `path: message` (a bad key is named by its path) */
const linkIssues = (links: Record<string, string>) =>
  (socialLinksSchema.safeParse(links).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
const registration = (overrides: Record<string, unknown> = {}) => ({
  email: 'ada@example.org',
  password: 'Correct-Horse-9',
  firstName: 'Ada',
  lastName: 'Lovelace',
  acceptedTerms: true,
  ...overrides,
});

describe('phone numbers', () => {
  const phone = (phoneNumber: unknown) => issuesOf(updateUserInput, update({ phoneNumber }));

  it('take an optional plus, then digits, spaces, hyphens and parentheses, trimmed', () => {
    expect(parsed(updateUserInput, update({ phoneNumber: ' +1 (555) 010-9999 ' })).phoneNumber).toBe(
      '+1 (555) 010-9999',
    );
    expect(phone('0049 30 1234567')).toEqual([]);
    expect(phone(null)).toEqual([]); // clears the number
  });

  it('refuse letters, a plus in the middle and more than 32 characters', () => {
    for (const bad of ['call 555', '555+1', '555.010.9999']) expect(phone(bad)).toHaveLength(1);
    expect(phone('1'.repeat(32))).toEqual([]);
    expect(phone('1'.repeat(33))).toEqual(['phoneNumber: at most 32 characters']);
  });

  it('must contain a digit, even when the pattern matches', () => {
    expect(PHONE_PATTERN.test('(--)')).toBe(true);
    expect(phone('(--)')).toEqual(['phoneNumber: must contain digits']);
  });
});

describe('dates of birth', () => {
  it('are real calendar dates as YYYY-MM-DD, from 1900-01-01 on', () => {
    expect(['1900-01-01', '2000-02-29', '1990-12-31'].map((d) => accepts(birthDate, d))).toEqual([
      true,
      true,
      true,
    ]);
    expect(issuesOf(birthDate, '1899-12-31')).toEqual([': must be on or after 1900-01-01']);
    expect(accepts(birthDate, '1990-02-30')).toBe(false);
    expect(accepts(birthDate, '1900-02-29')).toBe(false); // 1900 was not a leap year
  });

  it('get one issue when malformed', () => {
    for (const bad of ['90-1-1', '1990/01/01', '1990-01-01T00:00:00Z', ''])
      expect(issuesOf(birthDate, bad)).toEqual([': must be a date as YYYY-MM-DD']);
  });

  it('may be cleared with null; "in the past" is left to core, which owns the clock', () => {
    expect(issuesOf(updateUserInput, update({ dateOfBirth: null }))).toEqual([]);
    expect(accepts(birthDate, '2999-01-01')).toBe(true);
  });
});

describe('social links', () => {
  it('hold at most 20 entries', () => {
    expect(accepts(socialLinksSchema, links(20))).toBe(true);
    expect(issuesOf(socialLinksSchema, links(21))).toEqual([': at most 20 entries']);
  });

  it('have trimmed keys of 1 to 50 characters', () => {
    expect(parsed(socialLinksSchema, { ' github ': 'https://github.com/ada' })).toEqual({
      github: 'https://github.com/ada',
    });
    expect(accepts(socialLinksSchema, { ['k'.repeat(50)]: 'x' })).toBe(true);
    // the message itself at the key, not zod's generic "Invalid key in record"
    expect(linkIssues({ '  ': 'https://x.org' })).toEqual(['  : key must not be empty']);
    expect(linkIssues({ ['k'.repeat(51)]: 'x' })).toEqual([`${'k'.repeat(51)}: key at most 50 characters`]);
  });

  it('refuse two keys that are the same once trimmed instead of dropping one', () => {
    expect(linkIssues({ a: '1', ' a ': '2' })).toEqual([' a : key given twice (keys are trimmed)']);
  });

  it('have values of at most 500 characters', () => {
    expect(accepts(socialLinksSchema, { site: 'v'.repeat(500) })).toBe(true);
    expect(issuesOf(socialLinksSchema, { site: 'v'.repeat(501) })).toEqual([
      'site: value at most 500 characters',
    ]);
  });
});

describe('updateUserInput', () => {
  it('takes only profile fields: email, role and status are refused', () => {
    for (const field of ['email', 'role', 'status', 'emailVerified'])
      expect(accepts(updateUserInput, update({ [field]: 'x' }))).toBe(false);
    expect(accepts(updateUserInput, update({ firstName: 'Grace', bio: null }))).toBe(true);
  });

  it('wants the id as a UUID', () => {
    expect(issuesOf(updateUserInput, { id: 'me' })).toEqual(['id: must be a user id (UUID)']);
  });
});

describe('preferencesPatch', () => {
  it('takes any subset, deep, and nothing else', () => {
    expect(accepts(preferencesPatch, {})).toBe(true);
    expect(accepts(preferencesPatch, { notifications: { sms: true } })).toBe(true);
    expect(accepts(preferencesPatch, { notifications: { fax: true } })).toBe(false);
    expect(accepts(preferencesPatch, { theme: 'blue' })).toBe(false);
    expect(accepts(preferencesPatch, { privacy: { showEmail: 'false' } })).toBe(false);
  });

  it('wants a BCP 47 language tag', () => {
    expect(['en', 'pt-BR', 'zh-Hant-TW'].every((language) => accepts(preferencesPatch, { language }))).toBe(
      true,
    );
    for (const language of ['e', 'not a tag', 'en_US', 'x'.repeat(36)])
      expect(accepts(languageTag, language)).toBe(false);
  });
});

describe('registerInput', () => {
  it('trims the email and names and wants a valid email', () => {
    const input = parsed(registerInput, registration({ email: ' ada@example.org ', lastName: ' Lovelace ' }));
    expect(input).toMatchObject({ email: 'ada@example.org', lastName: 'Lovelace' });
    expect(issuesOf(registerInput, registration({ email: 'ada@' }))).toEqual([
      'email: must be a valid email address',
    ]);
    expect(issuesOf(registerInput, registration({ firstName: ' ' }))).toEqual(['firstName: required']);
  });

  it('wants acceptedTerms as a JSON boolean', () => {
    expect(accepts(registerInput, registration({ acceptedTerms: 'true' }))).toBe(false);
    expect(accepts(registerInput, registration({ acceptedTerms: 1 }))).toBe(false);
  });
});

describe('administration inputs', () => {
  it('want a suspension reason', () => {
    expect(issuesOf(suspendUserInput, { id: USER_ID, reason: '   ' })).toEqual([
      'reason: a reason is required',
    ]);
  });

  it('read a registrations window of 1 to 366 days from the query string, 30 by default', () => {
    expect(parsed(registrationsInput, {}).days).toBe(30);
    expect(parsed(registrationsInput, { days: '7' }).days).toBe(7);
    expect(['0', '367', '1.5'].map((days) => accepts(registrationsInput, { days }))).toEqual([
      false,
      false,
      false,
    ]);
  });
});
