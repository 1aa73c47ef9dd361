import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { address } from './common';
import { castVoteInput, createDaoInput, createProposalInput, uint256String } from './governance';
import { fieldIssue, ISSUE_CODES } from './issue-codes';
import { DETAILS, REASONS } from './reasons';
import { birthDate, registerInput, socialLinksSchema } from './users';

/** the field issues a schema raises for `value`, as the API sends them */
function issues(schema: z.ZodType, value: unknown, reportInput = false) {
  const result = schema.safeParse(value, { reportInput });
  if (result.success) throw new Error('accepted');
  return result.error.issues.map(fieldIssue);
}

const id = '00000000-0000-4000-8000-000000000001';
const owner = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('field issue codes', () => {
  it('carries the code of a check with its own message (zod keeps params only for refinements)', () => {
    const [email] = issues(registerInput.shape.email, 'not-an-email');
    expect(email).toMatchObject({ code: 'invalid_email', message: 'must be a valid email address' });
    expect(issues(address, '0x12')).toEqual([
      {
        path: '',
        message: 'must be 0x followed by 40 hex characters',
        code: 'invalid_address',
        params: expect.any(Object),
      },
    ]);
    expect(issues(birthDate, '1800-01-01')[0]?.code).toBe('date_too_early');
    expect(issues(uint256String, (2n ** 256n).toString())[0]?.code).toBe('uint256_overflow');
  });

  it('gives each refinement of a superRefine its code, on its path', () => {
    const proposal = {
      daoId: id,
      title: 'T',
      creatorAddress: owner,
      votingDurationHours: 1,
      votingOptions: ['Yes', 'yes'],
    };
    expect(issues(createProposalInput, proposal)).toEqual([
      expect.objectContaining({ path: 'votingOptions.1', code: 'options_distinct' }),
    ]);
    const dao = {
      name: 'D',
      ownerAddress: owner,
      votingRules: { threshold: 50, membership: 'token-holders' },
    };
    expect(issues(createDaoInput, dao)).toEqual([
      expect.objectContaining({ path: 'votingRules.membership', code: 'holders_need_token' }),
    ]);
    expect(issues(socialLinksSchema, { ' ': 'x' })).toEqual([expect.objectContaining({ code: 'key_empty' })]);
  });

  it("keeps zod's code where a schema keeps zod's check, with the numbers its text needs", () => {
    expect(issues(registerInput.shape.firstName, '')).toEqual([
      expect.objectContaining({ code: 'too_small', params: { origin: 'string', minimum: 1 } }),
    ]);
    expect(issues(castVoteInput.shape.comment, 'x'.repeat(1_001))).toEqual([
      expect.objectContaining({ code: 'too_big', params: { origin: 'string', maximum: 1_000 } }),
    ]);
    // a form reports the input: an absent value reads "required"
    expect(issues(registerInput.shape.acceptedTerms, undefined, true)[0]).toMatchObject({
      code: 'invalid_type',
      params: { expected: 'boolean', received: 'nothing' },
    });
  });

  it('lists every code once', () => {
    for (const list of [REASONS, DETAILS, ISSUE_CODES] as readonly (readonly string[])[])
      expect(new Set(list).size).toBe(list.length);
  });
});
