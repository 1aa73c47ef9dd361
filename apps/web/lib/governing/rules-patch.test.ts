import { describe, expect, it } from 'vitest';
import { rulesPatch } from './rules-patch';

const current = {
  threshold: 50,
  minVotingPeriod: 0,
  tokenWeighted: false,
  token: null,
  membership: 'members' as const,
  minWeight: null,
  quorum: 0,
  resultsVisibility: 'live' as const,
  allowVoteChange: false,
  proposers: 'members' as const,
  proposalThreshold: null,
  maxActiveProposalsPerAuthor: null,
  delegation: false,
};

describe('rulesPatch', () => {
  it('is null when the form shows the current rules', () => {
    expect(rulesPatch(current, { threshold: 50, quorum: 0, proposalThreshold: null })).toBeNull();
  });
  it('keeps only the fields that changed, a cleared limit as null', () => {
    expect(
      rulesPatch(
        { ...current, maxActiveProposalsPerAuthor: 3 },
        { threshold: 60, quorum: 0, proposers: 'authors', maxActiveProposalsPerAuthor: null },
      ),
    ).toEqual({ threshold: 60, proposers: 'authors', maxActiveProposalsPerAuthor: null });
  });
  it('leaves an unreadable number in for the schema to name', () => {
    expect(rulesPatch(current, { threshold: Number.NaN })).toEqual({ threshold: Number.NaN });
  });
  it('skips a field the form does not show', () => {
    expect(rulesPatch(current, { threshold: undefined })).toBeNull();
  });
});
