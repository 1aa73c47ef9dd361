import { describe, expect, it } from 'vitest';
import { afterAttempt, deliveryIdFor, MAX_ATTEMPTS } from './schedule';

describe('deliveryIdFor', () => {
  const webhook = '0b7e6f7e-3c1a-4a51-9d8c-2f1e0c9b8a71';
  it('is a version 5 UUID fixed by (webhook, event): the same webhook-id on every fan-out', () => {
    const id = deliveryIdFor(webhook, 42);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deliveryIdFor(webhook, 42)).toBe(id);
  });
  it('differs per event and per webhook', () => {
    const other = '9f4c2d1e-8b7a-4c6d-a5e4-3b2c1d0e9f8a';
    const ids = new Set([
      deliveryIdFor(webhook, 1),
      deliveryIdFor(webhook, 2),
      deliveryIdFor(webhook, 12),
      deliveryIdFor(other, 1),
    ]);
    expect(ids.size).toBe(4);
  });
});

describe('afterAttempt', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  it('a success is finished; a failed first attempt is due again 5 s later', () => {
    expect(afterAttempt({ ok: true, attempts: 1, at })).toEqual({
      status: 'succeeded',
      exhausted: false,
      next: at,
    });
    expect(afterAttempt({ ok: false, attempts: 1, at })).toEqual({
      status: 'pending',
      exhausted: false,
      next: new Date(at.getTime() + 5000),
    });
  });
  it('the last attempt failing ends the delivery', () => {
    expect(afterAttempt({ ok: false, attempts: MAX_ATTEMPTS, at })).toMatchObject({
      status: 'failed',
      exhausted: true,
    });
  });
});
