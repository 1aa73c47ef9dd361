import { readFileSync } from 'node:fs';
import { INELIGIBLE_REASON } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import en from '../../messages/en/errors.json';
import { serverError } from '../test-support/trpc-error';
import { governanceError } from './errors';
import { checkProposalJson } from './proposal-data';

describe('governanceError', () => {
  it('replaces the message of a known reason with a sentence a member can act on', () => {
    const err = serverError({ httpStatus: 409, reason: 'ALREADY_VOTED', message: '0xabc has already voted' });
    expect(governanceError(err)).toEqual({
      message: 'This address has already voted on this proposal, and votes in this DAO cannot be changed.',
      reason: 'ALREADY_VOTED',
      fields: {},
    });
  });

  it('says why a vote is NOT_ELIGIBLE from its detail, the voting power’s own reason', () => {
    const err = serverError({ httpStatus: 403, reason: 'NOT_ELIGIBLE', detail: 'ACCOUNT_SUSPENDED' });
    expect(governanceError(err)).toMatchObject({
      message: 'The account this address belongs to is suspended, so it cannot vote.',
      reason: 'NOT_ELIGIBLE',
      detail: 'ACCOUNT_SUSPENDED',
    });
    // an unknown detail falls back to the reason's sentence
    expect(governanceError(serverError({ reason: 'NOT_ELIGIBLE', detail: 'SOMETHING_NEW' })).message).toMatch(
      /^This address cannot vote on this proposal/,
    );
  });

  it('keeps the server’s message for other reasons and for none', () => {
    expect(governanceError(serverError({ reason: 'SOMETHING_NEW', message: 'Details' })).message).toBe(
      'Details',
    );
    expect(governanceError(serverError({ message: 'Plain' })).message).toBe('Plain');
  });

  it('keeps field issues alongside the sentence', () => {
    const err = serverError({
      reason: 'NOT_A_MEMBER',
      issues: [{ path: 'creatorAddress', message: 'not a member' }],
    });
    expect(governanceError(err).fields).toEqual({ creatorAddress: ['not a member'] });
  });

  it('has a sentence for every reason the governance API gives', () => {
    const reasons = [
      'NOT_ELIGIBLE',
      'PROPOSAL_NOT_ACTIVE',
      'DAO_NOT_ACTIVE',
      'NOT_OWNER',
      'EMAIL_NOT_VERIFIED',
      'STALE_SIGNATURE',
      // a vote is refused with the voting power's reason: every one has its sentence
      ...INELIGIBLE_REASON.options,
    ];
    // the sentences governanceError reads: a reason's, or a detail's (why NOT_ELIGIBLE)
    const sentences: Record<string, string> = { ...en.reasons, ...en.details };
    for (const reason of reasons) expect(sentences[reason], reason).toMatch(/\.$/);
  });

  it('says every reason a voter may not vote in both languages, for the voting power and the refusal', () => {
    const read = <T>(locale: string, file: string) =>
      JSON.parse(readFileSync(new URL(`../../messages/${locale}/${file}`, import.meta.url), 'utf8')) as T;
    for (const locale of ['en', 'de']) {
      const messages = read<{ power: Record<string, string> }>(locale, 'governance.json');
      // a refusal is said by its detail (why NOT_ELIGIBLE), else its reason, as governanceError reads them
      const refusals = read<{ reasons: Record<string, string>; details: Record<string, string> }>(
        locale,
        'errors.json',
      );
      for (const reason of [...INELIGIBLE_REASON.options, 'STALE_SIGNATURE']) {
        if (reason !== 'STALE_SIGNATURE')
          expect(messages.power[reason], `${locale} power.${reason}`).toBeTruthy();
        const refusal = refusals.details[reason] ?? refusals.reasons[reason];
        expect(refusal, `${locale} errors.json details/reasons ${reason}`).toBeTruthy();
      }
    }
  });
});

describe('checkProposalJson', () => {
  it('reads empty text as an empty object', () => {
    expect(checkProposalJson('')).toEqual({ ok: true, value: {}, bytes: 2 });
    expect(checkProposalJson(' \n ')).toEqual({ ok: true, value: {}, bytes: 2 });
  });

  it('takes a JSON object and counts its UTF-8 bytes as sent', () => {
    expect(checkProposalJson('{ "budget": 1200 }')).toEqual({ ok: true, value: { budget: 1200 }, bytes: 15 });
    expect(checkProposalJson('{"name":"é"}')).toMatchObject({ ok: true, bytes: 13 });
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(checkProposalJson('{budget: 1}')).toMatchObject({
      ok: false,
      code: 'syntax',
      message: expect.stringMatching(/^Not valid JSON: /),
    });
    for (const text of ['[1]', 'null', '"x"', '42'])
      expect(checkProposalJson(text)).toEqual({
        ok: false,
        code: 'notObject',
        message: 'Must be a JSON object, like {"budget": 1200}',
      });
  });

  it('refuses more than 64 KiB, the limit the API holds', () => {
    const object = (n: number) => JSON.stringify({ d: 'x'.repeat(n) }); // 8 bytes around the string
    expect(checkProposalJson(object(65_536 - 8))).toMatchObject({ ok: true, bytes: 65_536 });
    expect(checkProposalJson(object(65_536 - 7))).toEqual({
      ok: false,
      code: 'tooLarge',
      message: 'Too large: 65537 bytes of at most 65536',
      bytes: 65_537,
    });
  });
});
