import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { address, isoDateTime, paged, pageQuery } from './common';
import { accepts, issuesOf, parsed } from './test-helpers';

const page = z.strictObject(pageQuery);

describe('pagination', () => {
  it('defaults to page 1 of 50', () => {
    expect(parsed(page, {})).toEqual({ page: 1, limit: 50 });
  });

  it('reads numbers from query strings', () => {
    expect(parsed(page, { page: '3', limit: '200' })).toEqual({ page: 3, limit: 200 });
  });

  it('takes whole pages from 1 and limits from 1 to 200', () => {
    for (const bad of [{ page: 0 }, { page: 1.5 }, { limit: 0 }, { limit: 201 }, { page: 'two' }])
      expect(accepts(page, bad)).toBe(false);
  });

  it('describes a page of items with its totals', () => {
    const shape = paged(z.object({ id: z.string() }));
    const body = { items: [{ id: 'a' }], pagination: { total: 1, page: 1, limit: 50, totalPages: 1 } };
    expect(accepts(shape, body)).toBe(true);
    expect(accepts(shape, { items: [{ id: 1 }], pagination: body.pagination })).toBe(false);
  });
});

describe('address', () => {
  const A = '0x52908400098527886E0F7030069857D2E4169EE7';

  it('is 0x and 40 hex digits in any case (checksums are core’s)', () => {
    expect([A, A.toLowerCase(), `0x${A.slice(2).toUpperCase()}`].every((a) => accepts(address, a))).toBe(
      true,
    );
  });

  it('refuses other lengths, prefixes and characters with its own message', () => {
    for (const bad of [A.slice(0, -1), `${A}0`, A.slice(2), `0X${A.slice(2)}`, `${A.slice(0, -1)}g`, ` ${A}`])
      expect(issuesOf(address, bad)).toEqual([': must be 0x followed by 40 hex characters']);
  });
});

describe('isoDateTime', () => {
  it('wants a date-time with Z or an offset', () => {
    expect(accepts(isoDateTime, '2030-01-01T12:00:00Z')).toBe(true);
    expect(accepts(isoDateTime, '2030-01-01T12:00:00.123+02:00')).toBe(true);
    expect(accepts(isoDateTime, '2030-01-01T12:00:00')).toBe(false);
    expect(accepts(isoDateTime, '2030-01-01')).toBe(false);
  });
});
