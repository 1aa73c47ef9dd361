import { describe, expect, it } from 'vitest';
import type { Proposal } from '../governance/types';
import { durationHours, isoToLocal, proposalPatch } from './proposal-edit';

const start = new Date(2030, 0, 2, 10, 30, 45).toISOString();
const proposal = {
  title: 'Old',
  description: 'text',
  proposalData: { a: 1 },
  votingOptions: ['For', 'Against', 'Abstain'],
  votingSystem: 'single-choice',
  startTime: start,
  endTime: new Date(Date.parse(start) + 24 * 3_600_000).toISOString(),
} as unknown as Proposal;
const form = {
  title: 'Old',
  description: 'text',
  proposalData: { a: 1 },
  votingOptions: ['For', 'Against', 'Abstain'],
  votingSystem: 'single-choice' as const,
  votingDurationHours: 24,
  startLocal: isoToLocal(start),
};
const toIso = (local: string) => new Date(local).toISOString();

describe('proposalPatch', () => {
  it('is null for an untouched form, although the start is shown to the minute only', () => {
    expect(isoToLocal(start)).toBe('2030-01-02T10:30');
    expect(durationHours(proposal)).toBe(24);
    expect(proposalPatch(proposal, form, toIso)).toBeNull();
  });
  it('sends only what changed', () => {
    expect(
      proposalPatch(
        proposal,
        { ...form, title: 'New', votingDurationHours: 48, startLocal: '2030-01-03T09:00' },
        toIso,
      ),
    ).toEqual({
      title: 'New',
      votingDurationHours: 48,
      startTime: new Date(2030, 0, 3, 9, 0).toISOString(),
    });
  });
  it('sees changed options and data', () => {
    expect(
      proposalPatch(proposal, { ...form, votingOptions: ['Yes', 'No'], proposalData: {} }, toIso),
    ).toEqual({ votingOptions: ['Yes', 'No'], proposalData: {} });
  });
});
