import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import { ConnectionStreams, Gate, StreamAdmission } from './limits';

const refusedWith = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof AppError ? `${err.code} ${err.reason}` : String(err);
  }
  return 'admitted';
};

describe('StreamAdmission', () => {
  it('caps streams per user and per connection, and takes each slot back once', () => {
    const a = new StreamAdmission({ perConnection: 2, perUser: 3 });
    const conn = new ConnectionStreams(2);
    const r1 = a.admit('u', conn);
    a.admit('u', conn);
    expect(refusedWith(() => a.admit('u', conn))).toBe('TOO_MANY_REQUESTS TOO_MANY_SUBSCRIPTIONS');
    const r3 = a.admit('u');
    expect(refusedWith(() => a.admit('u'))).toBe('TOO_MANY_REQUESTS TOO_MANY_SUBSCRIPTIONS');
    expect(refusedWith(() => a.admit('other'))).toBe('admitted');
    r1();
    r1();
    expect(a.openStreams('u')).toBe(2);
    r3();
    conn.close();
    expect(a.openStreams('u')).toBe(0);
    // a closed connection holds nothing
    a.admit('u', conn);
    expect(a.openStreams('u')).toBe(0);
  });
});

describe('Gate', () => {
  it('runs at most `max` tasks at once, the others in arrival order', async () => {
    const gate = new Gate(2);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gate.run(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await new Promise((r) => setImmediate(r));
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
