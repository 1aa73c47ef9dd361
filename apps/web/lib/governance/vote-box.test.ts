import { describe, expect, it } from 'vitest';
import { type PowerOf, type VoteBoxInput, voteBox } from './vote-box';

const A = '0xaaaa';
const B = '0xbbbb';
const W = '0xwwww';
const can: PowerOf = { eligible: true, hasVoted: false };
const cannot: PowerOf = { eligible: false, hasVoted: false };
const voted: PowerOf = { eligible: true, hasVoted: true };

function box(powers: Record<string, PowerOf>, over: Partial<VoteBoxInput> = {}) {
  return voteBox({
    status: 'ACTIVE',
    allowVoteChange: false,
    reopened: false,
    sessionWallets: Object.keys(powers).filter((a) => a !== W),
    connected: undefined,
    powerOf: (a) => powers[a],
    myVotes: 0,
    ...over,
  });
}

describe('voteBox', () => {
  it('offers the ballot for the eligible linked wallets only, and the browser wallet beside them', () => {
    expect(box({ [A]: can, [B]: cannot })).toEqual({
      mode: 'ballot',
      ballotWallets: [A],
      walletOption: true,
    });
  });

  it('shows no ballot to a user none of whose wallets may vote: the reasons and a wallet to connect', () => {
    expect(box({ [A]: cannot }).mode).toBe('connect');
    expect(box({}).mode).toBe('connect'); // signed out, nothing connected
  });

  it('judges a connected browser wallet by its own voting power', () => {
    expect(box({ [W]: can }, { connected: W })).toEqual({
      mode: 'ballot',
      ballotWallets: [],
      walletOption: true,
    });
    expect(box({ [A]: cannot, [W]: cannot }, { connected: W }).mode).toBe('cannot');
    expect(box({ [A]: can, [W]: cannot }, { connected: W })).toEqual({
      mode: 'ballot',
      ballotWallets: [A],
      walletOption: false,
    });
  });

  it('waits for every answer before deciding', () => {
    expect(box({ [A]: can }, { sessionWallets: [A, B] }).mode).toBe('loading');
  });

  it('replaces the ballot with my vote, until I reopen it where that is allowed', () => {
    expect(box({ [A]: voted }, { myVotes: 1 }).mode).toBe('voted');
    expect(box({ [A]: voted }, { myVotes: 1, reopened: true }).mode).toBe('connect');
    expect(box({ [A]: voted }, { myVotes: 1, reopened: true, allowVoteChange: true })).toEqual({
      mode: 'ballot',
      ballotWallets: [A],
      walletOption: true,
    });
  });

  it('has no ballot before voting starts or after it ends', () => {
    expect(box({ [A]: can }, { status: 'PENDING' }).mode).toBe('closed');
    expect(box({ [A]: voted }, { status: 'PASSED', myVotes: 1 }).mode).toBe('closed');
  });
});
