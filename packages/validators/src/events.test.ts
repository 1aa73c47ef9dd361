import { describe, expect, it } from 'vitest';
import { eventSubscriptionInput, lastEventIdSchema, socketEventQuery } from './events';
import { accepts, parsed } from './test-helpers';

describe('event subscriptions', () => {
  it('take the last event id as a number or its decimal string', () => {
    expect(parsed(lastEventIdSchema, '42')).toBe(42);
    expect(parsed(lastEventIdSchema, 0)).toBe(0);
    for (const bad of ['-1', '1.5', 1.5, -1, '1'.repeat(16), ''])
      expect(accepts(lastEventIdSchema, bad)).toBe(false);
  });

  it('take 1 to 4 event names of the four there are', () => {
    expect(accepts(eventSubscriptionInput, { events: ['vote_cast'] })).toBe(true);
    expect(accepts(eventSubscriptionInput, { events: [] })).toBe(false);
    expect(accepts(eventSubscriptionInput, { events: ['vote_deleted'] })).toBe(false);
  });

  it('read a Socket.IO handshake query, ignoring empty values and Socket.IO’s own keys', () => {
    const q = parsed(socketEventQuery, {
      events: 'vote_cast, dao_created',
      lastEventId: '7',
      daoId: '',
      EIO: '4',
    });
    expect(q).toEqual({ events: ['vote_cast', 'dao_created'], lastEventId: 7 });
  });
});
