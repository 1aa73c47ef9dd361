import { DETAILS, ISSUE_CODES, REASONS, registerInput } from '@plenum/validators';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import de from '../../messages/de/errors.json';
import en from '../../messages/en/errors.json';
import { toDisplayError } from '../errors';
import { validate } from '../form';
import { serverError } from '../test-support/trpc-error';
import { type ErrorTranslator, issueText, translateError } from './error-text';

const translator = (locale: 'en' | 'de') =>
  createTranslator({
    locale,
    messages: { errors: locale === 'de' ? de : en },
    namespace: 'errors',
  }) as unknown as ErrorTranslator;
const tDe = translator('de');
const tEn = translator('en');

describe('every code has its text in English and German', () => {
  const sections = [
    ['reasons', REASONS],
    ['details', DETAILS],
    ['issues', ISSUE_CODES],
  ] as const;
  for (const [section, codes] of sections) {
    it(`${section}: each code of @plenum/validators, non-empty, in both languages`, () => {
      for (const messages of [en, de]) {
        const texts = messages[section] as Record<string, string>;
        const missing = codes.filter((code) => !texts[code]?.trim());
        expect(missing, `${section} without a text`).toEqual([]);
      }
    });
  }

  it('has the same keys in both languages, and German differs from English', () => {
    for (const section of ['summary', 'reasons', 'details', 'issues'] as const) {
      expect(Object.keys(de[section]).sort()).toEqual(Object.keys(en[section]).sort());
      for (const [key, text] of Object.entries(de[section] as Record<string, string>))
        expect(text, `${section}.${key}`).not.toBe((en[section] as Record<string, string>)[key]);
    }
  });

  it('formats every issue text with the params it may be given', () => {
    // custom: a refinement of the page itself, shown as written
    for (const t of [tEn, tDe])
      for (const code of ISSUE_CODES.filter((c) => c !== 'custom'))
        expect(issueText(t, { path: 'x', message: 'english', code, params: { minimum: 2 } })).not.toMatch(
          /[{}]|^issues\.|english/,
        );
  });
});

describe('errors in the page’s language, by code', () => {
  it('says a server reason in German, whatever the server’s English message', () => {
    const err = serverError({
      httpStatus: 401,
      reason: 'INVALID_CREDENTIALS',
      message: 'Invalid email or password',
    });
    expect(translateError(tDe, toDisplayError(err)).message).toBe('E-Mail-Adresse oder Passwort ist falsch.');
    expect(translateError(tEn, toDisplayError(err)).message).toBe('Invalid email or password.');
  });

  it('prefers the detail under a reason, and keeps the server’s message for an unknown code', () => {
    const refused = serverError({ httpStatus: 403, reason: 'NOT_ELIGIBLE', detail: 'JOINED_AFTER_START' });
    expect(translateError(tDe, toDisplayError(refused)).message).toMatch(
      /nach Abstimmungsbeginn beigetreten/,
    );
    const unknown = serverError({ reason: 'SOMETHING_NEW', message: 'Details in English' });
    expect(translateError(tDe, toDisplayError(unknown)).message).toBe('Details in English');
  });

  it('puts the API’s field issues into words by code and params, never by their English text', () => {
    const err = serverError({
      message: 'Invalid input',
      reason: 'VALIDATION_FAILED',
      issues: [
        // the English text is not what decides: the code is
        { path: 'email', message: 'anything', code: 'invalid_email' },
        {
          path: 'password',
          message: 'must be at least 12 characters',
          code: 'minLength',
          params: { minimum: 12 },
        },
        { path: 'name', message: 'too short', code: 'too_small', params: { origin: 'string', minimum: 1 } },
        {
          path: 'comment',
          message: 'too long',
          code: 'too_big',
          params: { origin: 'string', maximum: 1000 },
        },
        { path: '', message: 'a message without a code' },
      ],
    });
    expect(translateError(tDe, toDisplayError(err))).toMatchObject({
      message: 'Bitte korrigieren Sie die markierten Felder.',
      fields: {
        email: ['muss eine gültige E-Mail-Adresse sein'],
        password: ['muss mindestens 12 Zeichen lang sein'],
        name: ['Pflichtfeld'],
        comment: ['darf höchstens 1000 Zeichen lang sein'],
        '': ['a message without a code'],
      },
    });
  });

  it('says a form check of a shared schema in German; a page’s own refinement stays as written', () => {
    const schema = registerInput
      .pick({ email: true, firstName: true, acceptedTerms: true })
      .refine((v) => v.acceptedTerms, { path: ['acceptedTerms'], message: 'Bitte akzeptieren' });
    const checked = validate(schema, { email: 'nope', firstName: '', acceptedTerms: false });
    if (checked.ok) throw new Error('expected a refusal');
    expect(translateError(tDe, checked.error)).toMatchObject({
      message: 'Bitte korrigieren Sie die markierten Felder.',
      fields: {
        email: ['muss eine gültige E-Mail-Adresse sein'],
        firstName: ['Pflichtfeld'],
        acceptedTerms: ['Bitte akzeptieren'],
      },
    });
    const absent = validate(schema, { email: 'a@b.co', firstName: 'A' });
    if (absent.ok) throw new Error('expected a refusal');
    expect(translateError(tDe, absent.error).fields).toEqual({ acceptedTerms: ['Pflichtfeld'] });
  });
});
