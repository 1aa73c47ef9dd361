import { describe, expect, it } from 'vitest';
import { Sequencer } from './sequencer';

const opts = { graceMs: 25, maxWaitMs: 10_000, lateWatchMs: 60_000 };
const rows = (...ids: number[]) => ids.map((id) => ({ id }));
const ids = (r: { id: number }[]) => r.map((x) => x.id);

describe('Sequencer', () => {
  it('delivers a contiguous run and moves the cursor', () => {
    const s = new Sequencer(10, opts);
    expect(ids(s.advance(rows(11, 12, 13), 0).deliver)).toEqual([11, 12, 13]);
    expect(s.cursor).toBe(13);
  });

  it('ignores rows at or below the cursor', () => {
    const s = new Sequencer(10, opts);
    expect(ids(s.advance(rows(9, 10, 11), 0).deliver)).toEqual([11]);
  });

  it('holds back at a gap until the missing id commits, then delivers in id order', () => {
    const s = new Sequencer(10, opts);
    const first = s.advance(rows(11, 13, 14), 0);
    expect(ids(first.deliver)).toEqual([11]);
    expect(first.waiting).toBe(true);
    expect(s.cursor).toBe(11);
    // 12 commits after 13 and 14
    expect(ids(s.advance(rows(12, 13, 14), 5).deliver)).toEqual([12, 13, 14]);
    expect(s.cursor).toBe(14);
  });

  it('asks for a transaction id only after the grace period', () => {
    const s = new Sequencer(10, opts);
    s.advance(rows(12), 0);
    expect(s.needsXid(10)).toBe(false);
    expect(s.needsXid(25)).toBe(true);
    s.pinXid('100');
    expect(s.needsXid(30)).toBe(false);
    expect(s.pendingCheck()).toBe('100');
  });

  it('skips a gap once the writers that could fill it have ended', () => {
    const s = new Sequencer(10, opts);
    s.advance(rows(12), 0);
    s.pinXid('100');
    // still running: keep waiting
    expect(s.advance(rows(12), 30).waiting).toBe(true);
    s.writersEnded('100');
    const step = s.advance(rows(12, 13), 40);
    expect(ids(step.deliver)).toEqual([12, 13]);
    expect(step.forced).toEqual([]);
    expect(s.pendingCheck()).toBeNull();
  });

  it('ignores a proof for an older gap', () => {
    const s = new Sequencer(10, opts);
    s.advance(rows(12), 0);
    s.pinXid('100');
    s.advance(rows(11, 12, 14), 5); // 11 arrived: a new gap at 13
    s.writersEnded('100');
    expect(s.advance(rows(14), 6).waiting).toBe(true);
    expect(s.cursor).toBe(12);
  });

  it('gives up after maxWait and watches the skipped ids for a late commit', () => {
    const s = new Sequencer(10, opts);
    s.advance(rows(13), 0);
    expect(s.advance(rows(13), 9_999).waiting).toBe(true);
    const step = s.advance(rows(13), 10_000);
    expect(ids(step.deliver)).toEqual([13]);
    expect(step.forced).toEqual([11, 12]);
    expect(s.watchedIds(10_001)).toEqual([11, 12]);
    s.found(11);
    expect(s.watchedIds(10_002)).toEqual([12]);
    expect(s.watchedIds(80_001)).toEqual([]);
  });
});
