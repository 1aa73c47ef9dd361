import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import {
  append,
  EVENT_NAMES,
  idsOf,
  newId,
  personalToken,
  socketSubscriber,
  subscribed,
  trpcSubscriber,
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

const head = async () => String((await append(t, [vote(newId(), newId())]))[0]!.id);

async function refusal(auth: { token?: string } | undefined, query: Record<string, string> = {}) {
  const s = socketSubscriber(t, auth, query);
  try {
    const err = (await s.connected.then(
      () => null,
      (e: unknown) => e,
    )) as (Error & { data?: { code: string; reason: string; message: string } }) | null;
    expect(err, 'connection should be refused').not.toBeNull();
    return err!;
  } finally {
    s.close();
  }
}

describe('Socket.IO at /socket.io', () => {
  it('refuses a handshake without a token or with a bad one, saying why', async () => {
    const none = await refusal(undefined);
    expect(none.message).toMatch(/auth: \{ token \}/);
    expect(none.data).toMatchObject({ code: 'UNAUTHORIZED', reason: 'TOKEN_REQUIRED' });
    const bad = await refusal({ token: 'not-a-token' });
    expect(bad.data).toMatchObject({ code: 'UNAUTHORIZED', reason: 'INVALID_TOKEN' });
    const badPat = await refusal({ token: 'plm_nothing-like-this' });
    expect(badPat.data).toMatchObject({ code: 'UNAUTHORIZED', reason: 'INVALID_TOKEN' });
  });

  it('refuses a malformed resume point or filter with the failing field', async () => {
    const err = await refusal({ token: user.token }, { daoId: 'not-a-uuid', events: 'vote_cast,nope' });
    expect(err.data).toMatchObject({ code: 'BAD_REQUEST', reason: 'VALIDATION_FAILED' });
    expect(err.message).toMatch(/daoId/);
    expect(err.message).toMatch(/events/);
    // the one error body's field issues, each with its stable code (docs/api.md, "Errors")
    expect(err.data).toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ path: 'daoId', code: expect.any(String) })]),
    });
    expect((await refusal({ token: user.token }, { lastEventId: '-1' })).message).toMatch(/lastEventId/);
  });

  it('accepts a session or a personal access token and emits each event type with one argument', async () => {
    const daoId = newId();
    const proposalId = newId();
    const from = await head();
    const all = await append(t, [
      { type: 'dao_created', daoId, data: { dao: { daoId } } },
      { type: 'proposal_submitted', daoId, proposalId, data: {} },
      vote(daoId, proposalId),
      { type: 'proposal_status_changed', daoId, proposalId, data: { from: 'ACTIVE', to: 'PASSED' } },
    ]);
    for (const token of [user.token, await personalToken(t, user.id)]) {
      const s = socketSubscriber(t, { token }, { lastEventId: from, daoId });
      try {
        await s.connected;
        expect(await s.waitFor(4)).toEqual(all);
        expect(s.events.map((e) => e.type)).toEqual([...EVENT_NAMES]);
        expect(s.argCounts).toEqual([1, 1, 1, 1]);
        expect(s.errors).toEqual([]);
      } finally {
        s.close();
      }
    }
  });

  it('filters by comma-separated event names, daoId and proposalId', async () => {
    const [daoA, propA] = [newId(), newId()];
    const from = await head();
    const byType = socketSubscriber(
      t,
      { token: user.token },
      { lastEventId: from, events: 'proposal_submitted, vote_cast' },
    );
    const byDao = socketSubscriber(
      t,
      { token: user.token },
      { lastEventId: from, daoId: daoA, events: 'dao_created' },
    );
    const byProposal = socketSubscriber(t, { token: user.token }, { lastEventId: from, proposalId: propA });
    try {
      await Promise.all([byType.connected, byDao.connected, byProposal.connected]);
      const [dao, sub, v1, v2] = await append(t, [
        { type: 'dao_created', daoId: daoA, data: {} },
        { type: 'proposal_submitted', daoId: daoA, proposalId: propA, data: {} },
        vote(daoA, propA),
        vote(newId(), newId()),
      ]);
      expect(idsOf(await byType.waitFor(3))).toEqual(idsOf([sub!, v1!, v2!]));
      expect(idsOf(await byDao.waitFor(1))).toEqual(idsOf([dao!]));
      expect(idsOf(await byProposal.waitFor(2))).toEqual(idsOf([sub!, v1!]));
      await new Promise((r) => setTimeout(r, 100));
      expect([byType, byDao, byProposal].map((s) => s.events.length)).toEqual([3, 1, 2]);
    } finally {
      for (const s of [byType, byDao, byProposal]) s.close();
    }
  });

  it('a client that reconnects with its last id gets exactly what it missed, then live events', async () => {
    const [daoId, proposalId] = [newId(), newId()];
    const first = socketSubscriber(t, { token: user.token }, { proposalId });
    await first.connected;
    await subscribed(t, { proposalId });
    await append(t, [vote(daoId, proposalId, 1)]);
    const [seen] = await first.waitFor(1);
    first.close();

    const missed = [];
    for (let i = 2; i <= 6; i++) missed.push(...(await append(t, [vote(daoId, proposalId, i)])));
    const again = socketSubscriber(t, { token: user.token }, { proposalId, lastEventId: String(seen!.id) });
    try {
      await again.connected;
      expect(idsOf(await again.waitFor(5))).toEqual(idsOf(missed));
      const live = await append(t, [vote(daoId, proposalId, 7)]);
      expect(idsOf(await again.waitFor(6))).toEqual(idsOf([...missed, ...live]));
    } finally {
      again.close();
    }
  });

  it('serves the same stream as the tRPC subscription on the same port', async () => {
    const proposalId = newId();
    const from = await head();
    const sio = socketSubscriber(t, { token: user.token }, { proposalId, lastEventId: from });
    const trpc = trpcSubscriber(t, user.token, { proposalId, lastEventId: from });
    try {
      const sent = await append(t, [vote(newId(), proposalId, 1), vote(newId(), proposalId, 2)]);
      expect(await sio.waitFor(2)).toEqual(sent);
      expect(await trpc.waitFor(2)).toEqual(sent);
    } finally {
      sio.close();
      trpc.close();
    }
  });

  it('is described in the OpenAPI document next to the tRPC subscription', async () => {
    const doc = (await apiClient(t.url).get('/api/docs-json')).body as { info: { description: string } };
    expect(doc.info.description).toContain('/socket.io');
    expect(doc.info.description).toContain('events.stream');
    expect(doc.info.description).toContain('lastEventId');
  });
});
