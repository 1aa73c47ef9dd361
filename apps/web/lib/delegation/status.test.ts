import { describe, expect, it } from 'vitest';
import {
  delegateLines,
  delegationMode,
  isLongStatement,
  type PowerWithDelegate,
  participation,
  tokenUrl,
  walletsThatMayDelegate,
} from './status';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const D = '0x00000000000000000000000000000000000000dd';
const power = (p: Partial<PowerWithDelegate>): PowerWithDelegate => ({
  address: A,
  hasVoted: false,
  delegatedWeight: '0',
  delegatorCount: 0,
  delegate: null,
  ...p,
});

describe('delegateLines', () => {
  it('says nothing without a delegate or delegators', () => {
    expect(delegateLines([power({}), power({ delegate: undefined })])).toEqual([]);
  });

  it('my delegate voted and I did not: their choice carries my weight, null while hidden', () => {
    expect(delegateLines([power({ delegate: { address: D, hasVoted: true, choice: 'For' } })])).toEqual([
      { kind: 'delegateVoted', wallet: A, delegate: D, choice: 'For' },
    ]);
    expect(delegateLines([power({ delegate: { address: D, hasVoted: true, choice: null } })])).toEqual([
      { kind: 'delegateVoted', wallet: A, delegate: D, choice: null },
    ]);
  });

  it('my delegate has not voted yet', () => {
    expect(delegateLines([power({ delegate: { address: D, hasVoted: false, choice: null } })])).toEqual([
      { kind: 'delegateNotVoted', wallet: A, delegate: D },
    ]);
  });

  it('I voted myself: the override line, whether my delegate voted or not', () => {
    for (const hasVoted of [true, false])
      expect(
        delegateLines([power({ hasVoted: true, delegate: { address: D, hasVoted, choice: 'Against' } })]),
      ).toEqual([{ kind: 'votedMyself', wallet: A, delegate: D }]);
  });

  it('a delegate votes for its delegators; delegator lines come first, per wallet', () => {
    expect(
      delegateLines([
        power({ address: A, delegatorCount: 2, delegatedWeight: '7' }),
        power({ address: B, delegate: { address: D, hasVoted: false, choice: null } }),
      ]),
    ).toEqual([
      { kind: 'delegateNotVoted', wallet: B, delegate: D },
      { kind: 'asDelegate', wallet: A, count: 2, weight: '7' },
    ]);
  });
});

describe('participation', () => {
  it('no started proposals: nothing to tell', () => {
    expect(participation(0, null)).toEqual({ voted: 0, total: null, percent: null });
  });
  it('recovers the number of proposals from the rate', () => {
    expect(participation(3, 0.75)).toEqual({ voted: 3, total: 4, percent: 75 });
    expect(participation(1, 1 / 3).total).toBe(3);
    expect(participation(1, 1 / 3).percent).toBeCloseTo(33.33, 2);
    expect(participation(2, 2 / 7).total).toBe(7);
  });
  it('never voted: 0 %, the number of proposals unknown', () => {
    expect(participation(0, 0)).toEqual({ voted: 0, total: null, percent: 0 });
  });
});

describe('delegationMode and walletsThatMayDelegate', () => {
  const rules = { delegation: true, membership: 'members' as const, token: null };
  it('erc20-votes tokens delegate on the chain, whatever the rule says', () => {
    expect(delegationMode(rules)).toBe('on');
    expect(delegationMode({ ...rules, delegation: false })).toBe('off');
    expect(delegationMode({ ...rules, token: { standard: 'erc20-votes' } })).toBe('chain');
    expect(delegationMode({ ...rules, token: { standard: 'erc20' } })).toBe('on');
  });
  it('members DAOs: only my wallets on the member list (any letter case); holders DAOs: all of them', () => {
    expect(walletsThatMayDelegate(rules, [A.toUpperCase().replace('0X', '0x')], [A, B])).toEqual([A]);
    expect(walletsThatMayDelegate({ membership: 'token-holders' }, [], [A, B])).toEqual([A, B]);
  });
});

describe('statements and token links', () => {
  it('a long statement (many characters or many lines) starts collapsed', () => {
    expect(isLongStatement('short')).toBe(false);
    expect(isLongStatement('x'.repeat(601))).toBe(true);
    expect(isLongStatement('a\n'.repeat(9))).toBe(true);
  });
  it("links a known chain's explorer, nothing for a local chain", () => {
    expect(tokenUrl(1, A)).toBe(`https://etherscan.io/token/${A}`);
    expect(tokenUrl(31337, A)).toBeNull();
  });
});
