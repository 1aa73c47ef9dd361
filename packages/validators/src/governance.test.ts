import { describe, expect, it } from 'vitest';
import { address } from './common';
import {
  castVoteInput,
  createDaoInput,
  createProposalInput,
  DEFAULT_VOTING_OPTIONS,
  MAX_PROPOSAL_DATA_BYTES,
  uint256String,
  votingRulesInput,
  votingRulesPatch,
  votingRulesSchema,
} from './governance';
import { accepts, issuesOf, parsed } from './test-helpers';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const UUID = '6f1c1c52-3f1e-4a53-9d35-0c3a4b2f4a10';

const dao = (overrides: Record<string, unknown> = {}) => ({
  name: 'Garden club',
  ownerAddress: ADDRESS,
  votingRules: { threshold: 50 },
  ...overrides,
});
const proposal = (overrides: Record<string, unknown> = {}) => ({
  daoId: UUID,
  title: 'Fund the garden',
  creatorAddress: ADDRESS,
  votingDurationHours: 24,
  ...overrides,
});
const options = (votingOptions: unknown) =>
  parsed(createProposalInput, proposal({ votingOptions })).votingOptions;
const optionIssues = (votingOptions: unknown) => issuesOf(createProposalInput, proposal({ votingOptions }));

describe('voting options', () => {
  it('default to For, Against, Abstain when absent or empty, as a fresh copy', () => {
    expect(options(undefined)).toEqual(['For', 'Against', 'Abstain']);
    const fromEmpty = options([]);
    expect(fromEmpty).toEqual(['For', 'Against', 'Abstain']);
    fromEmpty.push('Changed');
    expect(DEFAULT_VOTING_OPTIONS).toEqual(['For', 'Against', 'Abstain']);
  });

  it('take 2 to 5 options', () => {
    expect(optionIssues(['Yes'])).toEqual(['votingOptions: give 2 to 5 options (or none)']);
    expect(options(['Yes', 'No'])).toEqual(['Yes', 'No']);
    expect(options(['a', 'b', 'c', 'd', 'e'])).toHaveLength(5);
    expect(optionIssues(['a', 'b', 'c', 'd', 'e', 'f'])).toEqual(['votingOptions: at most 5 options']);
  });

  it('are trimmed, and an option of only spaces is empty', () => {
    expect(options(['  Yes ', '\tNo\n'])).toEqual(['Yes', 'No']);
    expect(optionIssues(['Yes', '   '])).toEqual(['votingOptions.1: must not be empty']);
  });

  it('must be distinct ignoring case (after trimming), the later duplicate named', () => {
    expect(optionIssues(['Yes', 'No', ' YES '])).toEqual([
      'votingOptions.2: options must be distinct (ignoring case)',
    ]);
    expect(options(['Yes', 'Yess'])).toEqual(['Yes', 'Yess']);
  });

  it('are at most 100 characters once trimmed', () => {
    const hundred = 'x'.repeat(100);
    expect(options([hundred, 'No'])).toEqual([hundred, 'No']);
    expect(options([` ${hundred} `, 'No'])[0]).toBe(hundred);
    expect(optionIssues([`${hundred}y`, 'No'])).toHaveLength(1);
    expect(optionIssues([`${hundred}y`, 'No'])[0]).toMatch(/^votingOptions\.0: /);
  });
});

describe('createDaoInput', () => {
  it('trims the name and wants 1 to 100 characters', () => {
    expect(parsed(createDaoInput, dao({ name: '  Garden  ' })).name).toBe('Garden');
    expect(issuesOf(createDaoInput, dao({ name: '   ' }))).toEqual(['name: required']);
    expect(accepts(createDaoInput, dao({ name: 'n'.repeat(100) }))).toBe(true);
    expect(accepts(createDaoInput, dao({ name: 'n'.repeat(101) }))).toBe(false);
  });

  it('fills the voting rules’ defaults and the description', () => {
    expect(parsed(createDaoInput, dao())).toMatchObject({
      description: '',
      votingRules: { threshold: 50, minVotingPeriod: 0, tokenWeighted: false, quorum: 0 },
    });
  });

  it('refuses fields it does not know', () => {
    expect(accepts(createDaoInput, dao({ status: 'ACTIVE' }))).toBe(false);
  });
});

describe('votingRulesInput', () => {
  const rules = (r: Record<string, unknown>) => accepts(votingRulesInput, { threshold: 50, ...r });

  it('takes a threshold from 1 to 100, fractions included', () => {
    expect([0, 0.99, 1, 50.5, 100, 100.01].map((threshold) => rules({ threshold }))).toEqual([
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it('takes a quorum from 0 to 100 and a minimum voting period from 0 to 8760 hours', () => {
    expect([-0.01, 0, 100, 100.01].map((quorum) => rules({ quorum }))).toEqual([false, true, true, false]);
    expect([-1, 0, 8760, 8761].map((minVotingPeriod) => rules({ minVotingPeriod }))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('keeps JSON types exact: no numbers or booleans as strings', () => {
    expect(rules({ threshold: '50' })).toBe(false);
    expect(rules({ tokenWeighted: 'true' })).toBe(false);
  });
});

describe('votingRulesPatch', () => {
  it('names every rule creation takes and a DAO shows: a new rule cannot be left out of the edit', () => {
    const patch = Object.keys(votingRulesPatch.shape).sort();
    expect(patch).toEqual(Object.keys(votingRulesInput.in.shape).sort());
    expect(patch).toEqual(Object.keys(votingRulesSchema.shape).sort());
  });
});

describe('createProposalInput', () => {
  it('bounds proposal data at 64 KiB of UTF-8 JSON, counting bytes not characters', () => {
    // {"d":"…"} is 8 bytes around the string
    const ascii = (n: number) => proposal({ proposalData: { d: 'x'.repeat(n) } });
    expect(accepts(createProposalInput, ascii(MAX_PROPOSAL_DATA_BYTES - 8))).toBe(true);
    expect(issuesOf(createProposalInput, ascii(MAX_PROPOSAL_DATA_BYTES - 7))).toEqual([
      'proposalData: must be at most 64 KiB',
    ]);
    const twoByte = (n: number) => proposal({ proposalData: { d: 'é'.repeat(n) } });
    expect(accepts(createProposalInput, twoByte((MAX_PROPOSAL_DATA_BYTES - 8) / 2))).toBe(true);
    expect(accepts(createProposalInput, twoByte((MAX_PROPOSAL_DATA_BYTES - 8) / 2 + 1))).toBe(false);
  });

  it('takes a voting duration from one second to a year', () => {
    const hours = (votingDurationHours: number) =>
      accepts(createProposalInput, proposal({ votingDurationHours }));
    expect([0, 1 / 3600, 8760, 8760.01].map(hours)).toEqual([false, true, true, false]);
  });

  it('wants a startTime with an offset', () => {
    expect(accepts(createProposalInput, proposal({ startTime: '2030-01-01T00:00:00Z' }))).toBe(true);
    expect(accepts(createProposalInput, proposal({ startTime: '2030-01-01T00:00:00' }))).toBe(false);
  });
});

describe('uint256String', () => {
  it('takes exact non-negative integers up to 2^256 - 1', () => {
    expect(['0', '1', (2n ** 256n - 1n).toString()].every((s) => accepts(uint256String, s))).toBe(true);
    expect(issuesOf(uint256String, (2n ** 256n).toString())).toEqual([': must fit in uint256']);
  });

  it('refuses leading zeros, signs, decimals and exponents with one issue each', () => {
    for (const s of ['01', '-1', '1.5', '1e3', ' 1', '']) expect(issuesOf(uint256String, s)).toHaveLength(1);
  });
});

describe('castVoteInput', () => {
  const vote = (v: Record<string, unknown>) => ({
    proposalId: UUID,
    daoId: UUID,
    voterAddress: ADDRESS,
    choice: 'For',
    ...v,
  });

  it('takes a session vote or a hex signature with a whole-second timestamp', () => {
    expect(accepts(castVoteInput, vote({}))).toBe(true);
    expect(accepts(castVoteInput, vote({ signature: '0xabcDEF01', timestamp: 1_700_000_000 }))).toBe(true);
    expect(accepts(castVoteInput, vote({ signature: 'abcdef' }))).toBe(false);
    expect(accepts(castVoteInput, vote({ signature: '0x', timestamp: 1 }))).toBe(false);
    expect(accepts(castVoteInput, vote({ timestamp: 1.5 }))).toBe(false);
    expect(accepts(castVoteInput, vote({ timestamp: -1 }))).toBe(false);
  });

  it('wants a non-empty choice and an EVM address', () => {
    expect(issuesOf(castVoteInput, vote({ choice: '' }))).toEqual(['choice: required']);
    expect(accepts(address, ADDRESS.toLowerCase())).toBe(true);
    expect(accepts(castVoteInput, vote({ voterAddress: ADDRESS.slice(0, -1) }))).toBe(false);
  });
});
