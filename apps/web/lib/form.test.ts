import { createDaoInput, createProposalInput, registerInput } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validate } from './form';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const daoForm = (overrides: Record<string, unknown> = {}) => ({
  name: 'Garden club',
  ownerAddress: ADDRESS,
  votingRules: { threshold: 50 },
  ...overrides,
});
const fieldsOf = (schema: z.ZodType, values: unknown) => {
  const result = validate(schema, values);
  if (result.ok) throw new Error('expected the values to be refused');
  expect(result.error.message).toBe('Please correct the highlighted fields.');
  return result.error.fields;
};

describe('validate', () => {
  it('returns the parsed data, defaults filled, when the values pass', () => {
    const result = validate(createDaoInput, daoForm({ name: '  Garden club ' }));
    expect(result).toEqual({
      ok: true,
      data: {
        name: 'Garden club',
        description: '',
        ownerAddress: ADDRESS,
        votingRules: {
          threshold: 50,
          minVotingPeriod: 0,
          tokenWeighted: false,
          quorum: 0,
          resultsVisibility: 'live',
          allowVoteChange: false,
          delegation: false,
          membership: 'members',
          proposers: 'members',
        },
      },
    });
  });

  it('keeps the shared schema’s own messages', () => {
    expect(fieldsOf(createDaoInput, daoForm({ name: ' ', ownerAddress: '0x12' }))).toEqual({
      name: ['required'],
      ownerAddress: ['must be 0x followed by 40 hex characters'],
    });
  });

  it('words zod’s defaults plainly: required, a number, at least, at most', () => {
    expect(fieldsOf(createDaoInput, daoForm({ votingRules: {} }))).toEqual({
      'votingRules.threshold': ['required'],
    });
    expect(fieldsOf(createDaoInput, daoForm({ votingRules: { threshold: Number.NaN } }))).toEqual({
      'votingRules.threshold': ['must be a number'],
    });
    expect(fieldsOf(createDaoInput, daoForm({ votingRules: { threshold: 0, quorum: 101 } }))).toEqual({
      'votingRules.threshold': ['must be at least 1'],
      'votingRules.quorum': ['must be at most 100'],
    });
    expect(fieldsOf(createDaoInput, daoForm({ name: 'n'.repeat(101) }))).toEqual({
      name: ['must be at most 100 characters'],
    });
  });

  it('words formats and unexpected fields', () => {
    const proposal = {
      daoId: crypto.randomUUID(),
      title: 'T',
      creatorAddress: ADDRESS,
      votingDurationHours: 1,
    };
    expect(fieldsOf(createProposalInput, { ...proposal, startTime: 'tomorrow' })).toEqual({
      startTime: ['is not in the expected format'],
    });
    expect(fieldsOf(registerInput.pick({ firstName: true }), { firstName: 'Ada', extra: 1 })).toEqual({
      '': ['unexpected field'],
    });
  });

  it('lists every message of a field, path joined with dots', () => {
    const schema = z.object({
      tags: z.array(
        z
          .string()
          .min(2)
          .regex(/^[a-z]+$/, 'lower case only'),
      ),
    });
    expect(fieldsOf(schema, { tags: ['ok', 'X'] })).toEqual({
      'tags.1': [expect.any(String), 'lower case only'],
    });
  });
});
