import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { socketSubscriber, until } from './support/events';
import { activeUser, type TestUser } from './support/factories';
import { apiClient } from './support/http';
import { type RawTrpc, rawTrpc } from './support/raw-trpc';

// docs/events.md, "Limits": small caps, so that far more than them is quick to open
const PER_CONNECTION = 4;
const PER_USER = 10;

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await startTestApp({
    env: {
      EVENTS_MAX_SUBSCRIPTIONS_PER_CONNECTION: String(PER_CONNECTION),
      EVENTS_MAX_STREAMS_PER_USER: String(PER_USER),
    },
  });
  const api = apiClient(t.url);
  alice = await activeUser(api);
  bob = await activeUser(api);
});
afterAll(() => t.close());

const open: RawTrpc[] = [];
async function connect(user: TestUser) {
  const c = await rawTrpc(t, user.token);
  open.push(c);
  return c;
}
const streamsOf = (user: TestUser) => t.app.events.openStreams(user.id);

function refusalsOf(c: RawTrpc, ids: number[]) {
  return ids.flatMap((id) => {
    const e = c.answer.errors.get(id);
    return e ? [{ code: e.data.code, reason: e.data.reason, message: e.message }] : [];
  });
}

async function socketIo(user: TestUser) {
  const s = socketSubscriber(t, { token: user.token }, { lastEventId: '0' });
  const err = await s.connected.then(
    () => null,
    (e: Error & { data?: { code: string; reason?: string; message: string } }) => e,
  );
  return { s, err };
}

describe('event stream caps (docs/events.md, "Limits")', () => {
  it('refuses subscriptions beyond the cap of one WebSocket, and frees a slot when one stops', async () => {
    const c = await connect(alice);
    const ids = c.subscribe(PER_CONNECTION * 5, { lastEventId: 0 });
    await c.answered(ids);
    const accepted = ids.filter((id) => c.answer.started.has(id));
    const refused = refusalsOf(c, ids);
    console.log(
      `one WebSocket, ${ids.length} subscriptions: ${accepted.length} accepted, ${refused.length} refused`,
    );
    expect(accepted).toHaveLength(PER_CONNECTION);
    expect(refused).toHaveLength(ids.length - PER_CONNECTION);
    for (const r of refused) {
      expect(r).toEqual({
        code: 'TOO_MANY_REQUESTS',
        reason: 'TOO_MANY_SUBSCRIPTIONS',
        message: expect.any(String),
      });
      expect(r.message).toMatch(/this connection/);
    }

    // a stopped subscription gives its slot back
    c.stop(accepted[0]!);
    await until(() => streamsOf(alice) === PER_CONNECTION - 1, 'the stopped subscription to be released');
    const more = c.subscribe(3);
    await c.answered(more);
    expect(more.filter((id) => c.answer.started.has(id))).toHaveLength(1);

    // an abrupt disconnect gives back every slot of the connection
    c.drop();
    await until(() => streamsOf(alice) === 0, "the dropped connection's streams to be released");
  });

  it("caps one user's streams across WebSockets and Socket.IO, not other users'", async () => {
    const conns = await Promise.all(Array.from({ length: 6 }, () => connect(alice)));
    const sent = conns.map((c) => c.subscribe(PER_CONNECTION, { lastEventId: 0 }));
    await Promise.all(conns.map((c, i) => c.answered(sent[i]!)));
    const accepted = conns.reduce(
      (n, c, i) => n + sent[i]!.filter((id) => c.answer.started.has(id)).length,
      0,
    );
    const refused = conns.flatMap((c, i) => refusalsOf(c, sent[i]!));
    console.log(
      `one user, 6 WebSockets × ${PER_CONNECTION}: ${accepted} accepted, ${refused.length} refused`,
    );
    expect(accepted).toBe(PER_USER);
    expect(refused).toHaveLength(6 * PER_CONNECTION - PER_USER);
    for (const r of refused)
      expect(r).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'TOO_MANY_SUBSCRIPTIONS' });
    expect(streamsOf(alice)).toBe(PER_USER);

    // Socket.IO counts against the same budget: refused with the one error body in connect_error
    const sio = await Promise.all(Array.from({ length: 5 }, () => socketIo(alice)));
    try {
      expect(sio.filter((x) => x.err === null)).toHaveLength(0);
      for (const { err } of sio) {
        expect(err!.data).toEqual({
          code: 'TOO_MANY_REQUESTS',
          reason: 'TOO_MANY_SUBSCRIPTIONS',
          message: err!.message,
        });
      }
    } finally {
      for (const x of sio) x.s.close();
    }

    // another user is not affected
    const other = await connect(bob);
    const theirs = other.subscribe(PER_CONNECTION, { lastEventId: 0 });
    await other.answered(theirs);
    expect(theirs.filter((id) => other.answer.started.has(id))).toHaveLength(PER_CONNECTION);
    const bobIo = await socketIo(bob);
    expect(bobIo.err).toBeNull();
    bobIo.s.close();

    // dropped sockets give everything back
    for (const c of conns) c.drop();
    other.drop();
    await until(() => streamsOf(alice) === 0 && streamsOf(bob) === 0, 'every stream to be released');
  });

  it('caps Socket.IO connections of one user and releases them on abrupt disconnects', async () => {
    const tries = await Promise.all(Array.from({ length: PER_USER * 3 }, () => socketIo(alice)));
    const connected = tries.filter((x) => x.err === null);
    const refused = tries.filter((x) => x.err !== null);
    console.log(
      `one user, ${tries.length} Socket.IO connections: ${connected.length} accepted, ${refused.length} refused`,
    );
    try {
      expect(connected).toHaveLength(PER_USER);
      for (const { err } of refused)
        expect(err!.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'TOO_MANY_SUBSCRIPTIONS' });
      await until(() => streamsOf(alice) === PER_USER, 'the accepted connections to be counted');
      // a network failure: the underlying WebSocket is destroyed without a goodbye
      for (const { s } of connected)
        (s.socket.io.engine.transport as unknown as { ws: { terminate(): void } }).ws.terminate();
      await until(() => streamsOf(alice) === 0, "the dropped connections' streams to be released");
      const again = await socketIo(alice);
      expect(again.err).toBeNull();
      again.s.close();
    } finally {
      for (const { s } of tries) s.close();
    }
    await until(() => streamsOf(alice) === 0, 'the closed connection to be released');
  });
});

afterAll(() => {
  for (const c of open) c.drop();
});
