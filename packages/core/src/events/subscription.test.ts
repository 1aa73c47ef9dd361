import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../governance/event-log';
import { EventSubscription } from './subscription';

const DAO = '00000000-0000-4000-8000-000000000001';
const env = (id: number, over: Partial<EventEnvelope> = {}): EventEnvelope => ({
  id,
  type: 'vote_cast',
  daoId: DAO,
  occurredAt: new Date(0).toISOString(),
  data: {},
  ...over,
});

describe('EventSubscription', () => {
  it('queues matching events in order and drops the rest', async () => {
    const source = { cursor: 5 };
    const sub = new EventSubscription(source, { events: ['vote_cast'] }, 10, () => {});
    expect(sub.startCursor).toBe(5);
    sub.push(env(6));
    sub.push(env(7, { type: 'dao_created' }));
    sub.push(env(8));
    expect(await sub.next()).toMatchObject({ kind: 'event', event: { id: 6 } });
    expect(await sub.next()).toMatchObject({ kind: 'event', event: { id: 8 } });
  });

  it('wakes a waiting reader and ends it on abort or close', async () => {
    const sub = new EventSubscription({ cursor: 0 }, {}, 10, () => {});
    const pending = sub.next();
    sub.push(env(1));
    expect(await pending).toMatchObject({ event: { id: 1 } });
    const ac = new AbortController();
    const bound = new EventSubscription({ cursor: 0 }, {}, 10, () => {}).bind(ac.signal);
    const aborted = bound.next();
    ac.abort();
    expect(await aborted).toBeNull();
    let closed = 0;
    const other = new EventSubscription({ cursor: 0 }, {}, 10, () => closed++);
    const waiting = other.next();
    other.close();
    expect(await waiting).toBeNull();
    expect(closed).toBe(1);
  });

  it('turns an overflow into a catch-up up to the source cursor', async () => {
    const source = { cursor: 0 };
    const sub = new EventSubscription(source, {}, 3, () => {});
    for (let id = 1; id <= 5; id++) {
      source.cursor = id;
      sub.push(env(id));
    }
    expect(await sub.next()).toEqual({ kind: 'catchup', upTo: 5 });
    source.cursor = 6;
    sub.push(env(6));
    expect(await sub.next()).toMatchObject({ kind: 'event', event: { id: 6 } });
  });
});
