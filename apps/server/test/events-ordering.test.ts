import { appendEvents } from '@plenum/core';
import { events } from '@plenum/db';
import { asc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import {
  append,
  idsOf,
  newId,
  type Received,
  socketSubscriber,
  subscribed,
  trpcSubscriber,
  vote,
} from './support/events';
import { activeUser, type TestUser } from './support/factories';
import { apiClient } from './support/http';

let a: TestApp;
let user: TestUser;
beforeAll(async () => {
  a = await startTestApp();
  user = await activeUser(apiClient(a.url));
});
afterAll(() => a.close());

const storedIdsAfter = async (t: TestApp, after: number) =>
  (
    await t.app.svc.db
      .select({ id: events.id })
      .from(events)
      .where(gt(events.id, after))
      .orderBy(asc(events.id))
  ).map((r) => r.id);

/** Many writers at once, some rolling back after drawing ids (gaps that never fill). */
async function concurrentWrites(apps: TestApp[], daoId: string, writers: number, perWriter: number) {
  let committed = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const t = apps[w % apps.length]!;
      for (let i = 0; i < perWriter; i++) {
        const n = 1 + ((w + i) % 3);
        const rollback = (w * perWriter + i) % 7 === 3;
        await t.app.svc.db
          .transaction(async (tx) => {
            await appendEvents(tx, {
              items: Array.from({ length: n }, (_, k) => vote(daoId, newId(), k)),
            });
            if (rollback) throw new Error('rollback');
          })
          .then(
            () => {
              committed += n;
            },
            (err: Error) => {
              if (err.message !== 'rollback') throw err;
            },
          );
      }
    }),
  );
  return committed;
}

function expectExactlyInOrder(subs: Received[], expected: number[]) {
  for (const s of subs) {
    expect(s.errors).toEqual([]);
    expect(idsOf(s.events)).toEqual(expected);
  }
}

describe('ordering', () => {
  it('concurrent transactions, some rolled back: every subscriber gets every event once, in id order', async () => {
    const daoId = newId();
    const from = (await append(a, [vote(newId(), newId())]))[0]!.id;
    const subs = [
      trpcSubscriber(a, user.token, { daoId }),
      trpcSubscriber(a, user.token, { daoId, lastEventId: from }),
      socketSubscriber(a, { token: user.token }, { daoId }),
      socketSubscriber(a, { token: user.token }, { daoId, lastEventId: String(from) }),
    ];
    try {
      await subscribed(a, { daoId }, subs.length);
      const committed = await concurrentWrites([a], daoId, 12, 15);
      const expected = await storedIdsAfter(a, from);
      expect(expected).toHaveLength(committed);
      for (const s of subs) await s.waitFor(committed, 20_000);
      await new Promise((r) => setTimeout(r, 150));
      expectExactlyInOrder(subs, expected);
    } finally {
      for (const s of subs) s.close();
    }
  });

  it.skipIf(TEST_DB !== 'postgres')(
    'holds a higher id back until a lower id that commits later arrives',
    async () => {
      const daoId = newId();
      const s = trpcSubscriber(a, user.token, { daoId });
      try {
        await subscribed(a, { daoId });
        const order: string[] = [];
        let release!: () => void;
        const held = new Promise<void>((r) => {
          release = r;
        });
        let lowId = 0;
        let drawn!: () => void;
        const lowDrawn = new Promise<void>((r) => {
          drawn = r;
        });
        const slow = a.app.svc.db.transaction(async (tx) => {
          lowId = (await appendEvents(tx, { items: [vote(daoId, newId(), 1)] }))[0]!.id;
          drawn();
          await held; // still uncommitted while a later id commits
        });
        await lowDrawn;
        const [high] = await append(a, [vote(daoId, newId(), 2)]);
        order.push('high committed');
        // well past the grace period: the bus must still wait for the running writer
        await new Promise((r) => setTimeout(r, 300));
        expect(s.events).toEqual([]);
        release();
        await slow;
        order.push('low committed');
        expect(high!.id).toBeGreaterThan(lowId);
        expect(order).toEqual(['high committed', 'low committed']);
        expect(idsOf(await s.waitFor(2))).toEqual([lowId, high!.id]);
      } finally {
        s.close();
      }
    },
  );
});

describe.skipIf(TEST_DB !== 'postgres')('two server instances on one PostgreSQL', () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await startTestApp({ databaseUrl: a.databaseUrl! });
  });
  afterAll(() => b?.close());

  it('a subscriber on instance A receives events created on instance B', async () => {
    const daoId = newId();
    const viaTrpc = trpcSubscriber(a, user.token, { daoId });
    const viaSocket = socketSubscriber(a, { token: user.token }, { daoId });
    try {
      await subscribed(a, { daoId }, 2);
      const sent = await append(b, [{ type: 'dao_created', daoId, data: {} }, vote(daoId, newId())]);
      expect(await viaTrpc.waitFor(2)).toEqual(sent);
      expect(await viaSocket.waitFor(2)).toEqual(sent);
    } finally {
      viaTrpc.close();
      viaSocket.close();
    }
  });

  it('concurrent writers on both instances: subscribers on both get every event once, in id order', async () => {
    const daoId = newId();
    const from = (await append(a, [vote(newId(), newId())]))[0]!.id;
    const subs = [a, b].flatMap((t) => [
      trpcSubscriber(t, user.token, { daoId }),
      socketSubscriber(t, { token: user.token }, { daoId }),
      trpcSubscriber(t, user.token, { daoId, lastEventId: from }),
    ]);
    try {
      await subscribed(a, { daoId }, 3);
      await subscribed(b, { daoId }, 3);
      const committed = await concurrentWrites([a, b], daoId, 16, 15);
      const expected = await storedIdsAfter(a, from);
      expect(expected).toHaveLength(committed);
      for (const s of subs) await s.waitFor(committed, 20_000);
      await new Promise((r) => setTimeout(r, 150));
      expectExactlyInOrder(subs, expected);
    } finally {
      for (const s of subs) s.close();
    }
  });
});
