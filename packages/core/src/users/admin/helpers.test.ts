import { describe, expect, it } from 'vitest';
import { likePattern } from '../../shared/like';
import { allowedAvatarMimes } from '../avatar';
import { startOfUtcMonth } from './stats';

describe('admin helpers', () => {
  it('startOfUtcMonth is the first instant of the UTC month, whatever the local zone', () => {
    expect(startOfUtcMonth(new Date('2026-03-15T12:00:00Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(startOfUtcMonth(new Date('2026-03-01T00:00:00Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(startOfUtcMonth(new Date('2026-02-28T23:59:59.999Z')).toISOString()).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    // 00:30 on 1 April in UTC+2 is still March in UTC
    expect(startOfUtcMonth(new Date('2026-04-01T00:30:00+02:00')).toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
  });

  it('likePattern makes the search term literal', () => {
    expect(likePattern('ada')).toBe('%ada%');
    expect(likePattern('100%')).toBe('%100\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('back\\slash')).toBe('%back\\\\slash%');
  });
});

describe('allowed avatar types', () => {
  it('maps the configured names onto raster MIME types and never enables anything else', () => {
    expect([...allowedAvatarMimes(['jpg', 'jpeg', 'png', 'gif'])].sort()).toEqual([
      'image/gif',
      'image/jpeg',
      'image/png',
    ]);
    expect([...allowedAvatarMimes(['PNG', 'image/gif'])].sort()).toEqual(['image/gif', 'image/png']);
    expect([...allowedAvatarMimes(['svg', 'image/svg+xml', 'html', 'text/html'])]).toEqual([]);
  });
});
