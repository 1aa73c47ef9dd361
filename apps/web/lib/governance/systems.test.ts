import { canonicalChoice, VOTING_SYSTEM_NAMES } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import {
  ballotChoice,
  ballotKind,
  draftOf,
  dropIndex,
  emptyDraft,
  moveItem,
  parsePoints,
  pointsSplit,
  unranked,
} from './systems';

const OPTIONS = ['A', 'B', 'C'];

describe('voting systems', () => {
  it('offers every system, single choice first', () => {
    expect(VOTING_SYSTEM_NAMES).toEqual([
      'single-choice',
      'basic',
      'approval',
      'weighted',
      'quadratic',
      'ranked-choice',
    ]);
  });

  it('picks the ballot each system takes', () => {
    expect(VOTING_SYSTEM_NAMES.map(ballotKind)).toEqual([
      'single',
      'single',
      'approval',
      'points',
      'points',
      'ranked',
    ]);
    expect(emptyDraft('weighted')).toEqual({ kind: 'points', points: {} });
  });
});

describe('ranking', () => {
  it('moves an item up, down and to any place, clamped to the list', () => {
    expect(moveItem(['A', 'B', 'C'], 2, 1)).toEqual(['A', 'C', 'B']);
    expect(moveItem(['A', 'B', 'C'], 0, 1)).toEqual(['B', 'A', 'C']);
    expect(moveItem(['A', 'B', 'C'], 0, 9)).toEqual(['B', 'C', 'A']);
    expect(moveItem(['A', 'B', 'C'], 0, -1)).toEqual(['A', 'B', 'C']);
    expect(moveItem(['A', 'B', 'C'], 5, 0)).toEqual(['A', 'B', 'C']);
  });

  it('lists the options left unranked in the proposal’s order', () => {
    expect(unranked(OPTIONS, ['C'])).toEqual(['A', 'B']);
    expect(unranked(OPTIONS, ['B', 'A', 'C'])).toEqual([]);
  });

  it('drops a dragged item after the items whose middle is above the pointer', () => {
    const middles = [10, 30, 50, 70];
    expect(dropIndex(middles, 0, 5)).toBe(0);
    expect(dropIndex(middles, 0, 35)).toBe(1);
    expect(dropIndex(middles, 0, 100)).toBe(3);
    expect(dropIndex(middles, 3, 40)).toBe(2);
    expect(dropIndex(middles, 2, 50)).toBe(2);
  });
});

describe('points', () => {
  it('reads an input as points ≥ 0, an empty one as 0', () => {
    expect(['', ' 2 ', '1.5', '0', '-0', '1e2'].map(parsePoints)).toEqual([
      { ok: true, value: 0 },
      { ok: true, value: 2 },
      { ok: true, value: 1.5 },
      { ok: true, value: 0 },
      { ok: true, value: 0 },
      { ok: true, value: 100 },
    ]);
    expect(parsePoints('x')).toEqual({ ok: false, problem: 'nan' });
    expect(parsePoints('-1')).toEqual({ ok: false, problem: 'negative' });
    expect(parsePoints('Infinity')).toEqual({
      ok: false,
      problem: 'infinite',
    });
  });

  it('splits the weight in proportion to the points', () => {
    const split = pointsSplit(OPTIONS, { A: '3', B: '1', C: '' });
    expect(split.total).toBe(4);
    expect(split.shares.map((s) => s.percent)).toEqual([75, 25, 0]);
    expect(pointsSplit(OPTIONS, { A: '1', B: '1', C: '1' }).shares[0]?.percent).toBeCloseTo(33.333, 3);
  });

  it('gives no split without points, and ignores unreadable inputs', () => {
    expect(pointsSplit(OPTIONS, {}).shares.map((s) => s.percent)).toEqual([0, 0, 0]);
    expect(pointsSplit(OPTIONS, { A: 'x', B: '2' }).shares.map((s) => s.percent)).toEqual([0, 100, 0]);
  });
});

describe('ballotChoice', () => {
  it('sends one option for single choice and basic, and asks for one when none is chosen', () => {
    expect(ballotChoice(OPTIONS, { kind: 'single', option: 'B' })).toEqual({ ok: true, choice: 'B' });
    expect(ballotChoice(OPTIONS, { kind: 'single', option: null })).toEqual({
      ok: false,
      issues: [{ code: 'choose' }],
    });
  });

  it('sends approved options in the proposal’s order, none approved included', () => {
    expect(ballotChoice(OPTIONS, { kind: 'approval', approved: ['C', 'A'] })).toEqual({
      ok: true,
      choice: ['A', 'C'],
    });
    expect(ballotChoice(OPTIONS, { kind: 'approval', approved: [] })).toEqual({ ok: true, choice: [] });
  });

  it('sends a ranking as ranked, some or all options, and refuses an empty one', () => {
    expect(ballotChoice(OPTIONS, { kind: 'ranked', ranking: ['C', 'A'] })).toEqual({
      ok: true,
      choice: ['C', 'A'],
    });
    expect(ballotChoice(OPTIONS, { kind: 'ranked', ranking: [] })).toMatchObject({
      ok: false,
      issues: [{ code: 'rankOne' }],
    });
    expect(ballotChoice(OPTIONS, { kind: 'ranked', ranking: ['A', 'A'] })).toMatchObject({
      ok: false,
      issues: [{ code: 'rankOnce' }],
    });
    expect(ballotChoice(OPTIONS, { kind: 'ranked', ranking: ['D'] })).toMatchObject({
      ok: false,
      issues: [{ code: 'notOption', names: 'D' }],
    });
  });

  it('sends points above 0 only, and says which inputs are wrong', () => {
    expect(ballotChoice(OPTIONS, { kind: 'points', points: { A: '1.5', B: '0', C: '' } })).toEqual({
      ok: true,
      choice: { A: 1.5 },
    });
    expect(ballotChoice(OPTIONS, { kind: 'points', points: { A: '0', B: '' } })).toEqual({
      ok: false,
      issues: [{ code: 'pointsNone' }],
    });
    expect(ballotChoice(OPTIONS, { kind: 'points', points: { A: '-1', B: 'x' } })).toEqual({
      ok: false,
      issues: [
        { code: 'points', option: 'A', problem: 'negative' },
        { code: 'points', option: 'B', problem: 'nan' },
      ],
    });
  });

  it('gives the text a wallet signs: canonical JSON of an array or object ballot', () => {
    const points = ballotChoice(OPTIONS, { kind: 'points', points: { B: '1.50', A: '2' } });
    expect(points.ok && canonicalChoice(points.choice)).toBe('{"A":2,"B":1.5}');
    const ranking = ballotChoice(OPTIONS, { kind: 'ranked', ranking: ['B', 'A'] });
    expect(ranking.ok && canonicalChoice(ranking.choice)).toBe('["B","A"]');
    const single = ballotChoice(OPTIONS, { kind: 'single', option: 'A' });
    expect(single.ok && canonicalChoice(single.choice)).toBe('A');
  });
});

describe('draftOf (a changed vote starts from the earlier one)', () => {
  it('puts the earlier choice back on each ballot, dropping what is no option', () => {
    expect(draftOf('basic', ['For', 'Against'], 'Against')).toEqual({ kind: 'single', option: 'Against' });
    expect(draftOf('single-choice', OPTIONS, 'Z')).toEqual({ kind: 'single', option: null });
    expect(draftOf('approval', OPTIONS, ['C', 'Z', 'A'])).toEqual({ kind: 'approval', approved: ['C', 'A'] });
    expect(draftOf('ranked-choice', OPTIONS, ['B', 'A'])).toEqual({ kind: 'ranked', ranking: ['B', 'A'] });
    expect(draftOf('weighted', OPTIONS, { A: 2.5, Z: 1 })).toEqual({ kind: 'points', points: { A: '2.5' } });
  });

  it('starts empty from a hidden or mismatched choice', () => {
    expect(draftOf('approval', OPTIONS, null)).toEqual(emptyDraft('approval'));
    expect(draftOf('weighted', OPTIONS, ['A'])).toEqual(emptyDraft('weighted'));
    expect(draftOf('ranked-choice', OPTIONS, 'A')).toEqual(emptyDraft('ranked-choice'));
  });
});
