import type { Duplex } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { append, newId, until } from './support/events';
import { activeUser, type TestUser } from './support/factories';
import { apiClient } from './support/http';
import { rawTrpc } from './support/raw-trpc';

// docs/events.md, "Limits": a reader that stops reading costs its socket at most about this many bytes
const MAX_BUFFERED = 1_048_576;
const SUBSCRIPTIONS = 20;
const EVENTS = 3_000;
const PAYLOAD = 'x'.repeat(2_000);
const MiB = 1_048_576;

let t: TestApp;
let greedy: TestUser;
let bystander: TestUser;
/** the server's side of every tRPC WebSocket: its unsent bytes are the memory a slow reader costs */
const serverSockets = new Set<Duplex>();
beforeAll(async () => {
  t = await startTestApp({
    env: {
      EVENTS_MAX_SUBSCRIPTIONS_PER_CONNECTION: String(SUBSCRIPTIONS),
      EVENTS_MAX_BUFFERED_BYTES: String(MAX_BUFFERED),
    },
  });
  t.app.server.on('upgrade', (req, socket: Duplex) => {
    if (req.url?.startsWith('/trpc')) serverSockets.add(socket);
  });
  const api = apiClient(t.url);
  greedy = await activeUser(api);
  bystander = await activeUser(api);
  // thousands of stored events, written straight to the log (as a batch of votes would be)
  const daoId = newId();
  for (let i = 0; i < EVENTS; i += 500)
    await append(
      t,
      Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) => ({
        type: 'vote_cast' as const,
        daoId,
        proposalId: newId(),
        data: { vote: { n: i + k, note: PAYLOAD }, results: {} },
      })),
    );
}, 120_000);
afterAll(() => t.close());

const buffered = () => [...serverSockets].reduce((n, s) => n + s.writableLength, 0);
// what the process holds after a full collection: garbage would hide what a slow reader retains
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const retained = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe('event replay backpressure (docs/events.md, "Limits")', () => {
  it('a reader of many full replays that stops reading costs bounded memory; others are served; then what it keeps gets every event once, in order', async () => {
    const api = apiClient(t.url);
    const before = retained();
    let maxBuffered = 0;
    const sampler = setInterval(() => {
      maxBuffered = Math.max(maxBuffered, buffered());
    }, 5);
    const c = await rawTrpc(t, greedy.token);
    try {
      // it stops reading its socket, then asks for the whole history 20 times
      (c.ws as unknown as { _socket: Duplex })._socket.pause();
      const ids = c.subscribe(SUBSCRIPTIONS, { lastEventId: 0 });
      const bus = t.app.events;
      await until(
        () => bus.streamsWaitingForClients >= SUBSCRIPTIONS || maxBuffered > 64 * MiB,
        'every stream to wait for the reader',
        60_000,
      );
      const pausedBuffered = maxBuffered;
      const pausedMemory = retained() - before;

      // a bystander is served meanwhile
      const daos = await api.get('/daos', { token: bystander.token });
      expect(daos.status).toBe(200);

      // it stops most of its subscriptions while they wait: their slots come back at once
      const kept = ids.slice(0, 4);
      for (const id of ids.slice(4)) c.stop(id);
      await until(() => bus.openStreams(greedy.id) === kept.length, 'the stopped streams to be released');

      // it reads again (in the same process as the server: as fast as the event loop lets it)
      (c.ws as unknown as { _socket: Duplex })._socket.resume();
      const bystanders = await Promise.all(Array.from({ length: 5 }, () => api.get('/daos')));
      expect(bystanders.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      await until(
        () => kept.every((id) => (c.answer.events.get(id)?.length ?? 0) >= EVENTS),
        'the replays to arrive',
        120_000,
      );
      clearInterval(sampler);
      console.log(
        `${SUBSCRIPTIONS} replays of ${EVENTS} events (~${Math.round((SUBSCRIPTIONS * EVENTS * PAYLOAD.length) / MiB)} MiB) to a reader that stopped: ` +
          `server socket buffer at most ${(pausedBuffered / MiB).toFixed(1)} MiB while it stopped, ${(maxBuffered / MiB).toFixed(1)} MiB in all; ` +
          `heap + buffers retained ${(pausedMemory / MiB).toFixed(1)} MiB more while it stopped`,
      );
      expect(pausedBuffered).toBeLessThan(4 * MiB);
      expect(maxBuffered).toBeLessThan(4 * MiB);
      expect(pausedMemory).toBeLessThan(48 * MiB);
      // every event exactly once, in order, on every subscription
      const expected = c.answer.events.get(kept[0]!)!;
      expect(expected).toHaveLength(EVENTS);
      expect(new Set(expected).size).toBe(EVENTS);
      expect(expected).toEqual([...expected].sort((a, b) => a - b));
      for (const id of kept) expect(c.answer.events.get(id)).toEqual(expected);
    } finally {
      clearInterval(sampler);
      c.drop();
    }
  }, 180_000);
});
