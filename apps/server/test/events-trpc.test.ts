import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './support/app';
import {
  append,
  idsOf,
  newId,
  personalToken,
  subscribed,
  trpcSubscriber,
  until,
  vote,
} from './support/events';
import { activeUser, type TestUser } from './support/factories';
import { apiClient } from './support/http';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await activeUser(apiClient(t.url));
});
afterAll(() => t.close());

const head = async () => (await append(t, [vote(newId(), newId())]))[0]!.id;

describe('tRPC subscription events.stream', () => {
  it('refuses a connection without a valid token, with a clear error', async () => {
    const s = trpcSubscriber(t, 'not-a-token');
    try {
      await until(() => s.closes.length > 0 || s.errors.length > 0, 'the connection to be refused');
      expect(s.events).toEqual([]);
    } finally {
      s.close();
    }
    // what the server says on that socket before closing it
    for (const token of [undefined, 'not-a-token']) {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/trpc?connectionParams=1`);
      const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(String(d))));
      const closed = new Promise((resolve) => ws.once('close', resolve));
      ws.once('open', () =>
        ws.send(JSON.stringify({ method: 'connectionParams', data: token ? { token } : {} })),
      );
      const body = JSON.parse(await reply);
      expect(body.error.data.code).toBe('UNAUTHORIZED');
      expect(body.error.message).toMatch(/token is required/);
      await closed;
    }
  });

  it('accepts a session and a personal access token, and replays after lastEventId', async () => {
    const daoId = newId();
    const before = await head();
    const stored = await append(t, [
      { type: 'dao_created', daoId, data: { dao: { daoId } } },
      vote(daoId, newId()),
    ]);
    for (const token of [user.token, await personalToken(t, user.id)]) {
      const s = trpcSubscriber(t, token, { lastEventId: before, daoId });
      try {
        const got = await s.waitFor(2);
        expect(got).toEqual(stored);
        expect(s.lastId()).toBe(String(stored[1]!.id));
      } finally {
        s.close();
      }
    }
  });

  it('rejects bad input with BAD_REQUEST', async () => {
    const s = trpcSubscriber(t, user.token, { daoId: 'nope' } as never);
    try {
      await until(() => s.errors.length > 0, 'an error');
      expect((s.errors[0] as { data?: { code?: string } }).data?.code).toBe('BAD_REQUEST');
    } finally {
      s.close();
    }
  });

  it('filters by event names, daoId and proposalId', async () => {
    const [daoA, daoB, propA] = [newId(), newId(), newId()];
    const from = await head();
    const byType = trpcSubscriber(t, user.token, { lastEventId: from, events: ['dao_created', 'vote_cast'] });
    const byDao = trpcSubscriber(t, user.token, { lastEventId: from, daoId: daoA });
    const byProposal = trpcSubscriber(t, user.token, { lastEventId: from, proposalId: propA });
    try {
      await subscribed(t, { daoId: daoA });
      await subscribed(t, { proposalId: propA });
      const all = await append(t, [
        { type: 'dao_created', daoId: daoA, data: {} },
        { type: 'proposal_submitted', daoId: daoA, proposalId: propA, data: {} },
        vote(daoA, propA),
        { type: 'proposal_status_changed', daoId: daoB, proposalId: newId(), data: {} },
        vote(daoB, newId()),
      ]);
      const [dao, sub, v1, status, v2] = all;
      expect(idsOf(await byType.waitFor(3))).toEqual(idsOf([dao!, v1!, v2!]));
      expect(idsOf(await byDao.waitFor(3))).toEqual(idsOf([dao!, sub!, v1!]));
      expect(idsOf(await byProposal.waitFor(2))).toEqual(idsOf([sub!, v1!]));
      await new Promise((r) => setTimeout(r, 100));
      expect(byType.events.length + byDao.events.length + byProposal.events.length).toBe(8);
      expect(status).toBeDefined();
    } finally {
      for (const s of [byType, byDao, byProposal]) s.close();
    }
  });

  it('a subscriber that reconnects with its last id gets exactly what it missed, then live events', async () => {
    const [daoId, proposalId] = [newId(), newId()];
    const first = trpcSubscriber(t, user.token, { proposalId, lastEventId: await head() });
    const before = await append(t, [vote(daoId, proposalId, 1), vote(daoId, proposalId, 2)]);
    await first.waitFor(2);
    const lastId = first.lastId()!;
    first.close();

    const missed = [];
    for (let i = 3; i <= 7; i++) missed.push(...(await append(t, [vote(daoId, proposalId, i)])));
    await append(t, [vote(daoId, newId())]); // another proposal: filtered out

    const again = trpcSubscriber(t, user.token, { proposalId, lastEventId: lastId });
    try {
      expect(idsOf(await again.waitFor(5))).toEqual(idsOf(missed));
      const live = await append(t, [vote(daoId, proposalId, 8)]);
      expect(idsOf(await again.waitFor(6))).toEqual(idsOf([...missed, ...live]));
      expect(idsOf(first.events)).toEqual(idsOf(before));
    } finally {
      again.close();
    }
  });

  it('the client resumes by itself after a dropped connection, nothing lost or repeated', async () => {
    const [daoId, proposalId] = [newId(), newId()];
    const s = trpcSubscriber(t, user.token, { proposalId, lastEventId: await head() }, { retryDelayMs: 300 });
    try {
      const sent = await append(t, [vote(daoId, proposalId, 1)]);
      await s.waitFor(1);
      s.dropConnection();
      for (let i = 2; i <= 4; i++) sent.push(...(await append(t, [vote(daoId, proposalId, i)])));
      await s.waitFor(4);
      sent.push(...(await append(t, [vote(daoId, proposalId, 5)])));
      expect(idsOf(await s.waitFor(5))).toEqual(idsOf(sent));
      await new Promise((r) => setTimeout(r, 100));
      expect(s.events).toHaveLength(5);
    } finally {
      s.close();
    }
  });

  it('without lastEventId only live events arrive', async () => {
    const proposalId = newId();
    const [before] = await append(t, [vote(newId(), proposalId, 0)]);
    // "before" means before the subscription as the bus sees it: wait until the bus has taken it in
    const bus = t.app.events;
    await until(() => bus.cursor >= before!.id, 'the bus to pass the earlier event');
    const s = trpcSubscriber(t, user.token, { proposalId });
    try {
      await subscribed(t, { proposalId });
      const live = await append(t, [vote(newId(), proposalId, 1)]);
      expect(idsOf(await s.waitFor(1))).toEqual(idsOf(live));
    } finally {
      s.close();
    }
  });
});
