import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@plenum/core';
import { webhookDeliveries, webhookEvents } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { createDao, createProposal, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { uploadBytes } from './support/storage';

/**
 * Outbound webhooks (docs/webhooks.md): subscriptions and who may manage them, Standard Webhooks
 * signatures checked as a receiver checks them, the retry schedule on the app's clock, a receiver down then
 * up, disabling after the last attempt, SSRF refusals on the resolved address, and one delivery per event
 * with two instances on one PostgreSQL.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback; `status` decides its answers. */
async function receiver(port = 0) {
  const got: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(state.status, { 'content-type': 'text/plain' });
      res.end(`${'r'.repeat(2000)}`);
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    got,
    state,
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const clock = new ManualClock();
// every instance needs the same secret key to open the sealed signing secrets
const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SECRET_KEY: 'k'.repeat(48) };
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock, env });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const patch = (path: string, body: unknown, token: string) => api.request('PATCH', path, body, { token });
async function subscribe(owner: Member, daoId: string, url: string, events = ['dao_updated']) {
  const res = await api.post('/webhooks', { url, events, daoId }, { token: owner.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string };
}
async function deliveries(owner: Member, id: string) {
  const res = await api.get(`/webhooks/${id}/deliveries?limit=200`, { token: owner.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as {
    id: string;
    status: string;
    attempt: number;
    responseStatus: number | null;
    durationMs: number | null;
    responseBody: string | null;
    error: string | null;
    eventType: string;
  }[];
}
/** runs the app's sender until `check` passes (events are queued after commit, asynchronously) */
async function until<T>(app: TestApp, check: () => Promise<T>): Promise<T> {
  return vi.waitFor(
    async () => {
      await app.app.webhookWorker.tick();
      return check();
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('subscriptions', () => {
  it('the DAO owner subscribes: 201 with a whsec_ secret shown once; listed without it', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const res = await api.post(
      '/webhooks',
      { url: 'https://example.org/hook', events: ['vote_cast', 'dao_updated'], daoId: dao.daoId },
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      url: 'https://example.org/hook',
      events: ['vote_cast', 'dao_updated'],
      daoId: dao.daoId,
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
    });
    const list = await api.get(`/webhooks?daoId=${dao.daoId}`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].secret).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);

    const rotated = await api.post(`/webhooks/${res.body.id}/rotate-secret`, {}, { token: owner.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(res.body.secret);

    const off = await patch(`/webhooks/${res.body.id}`, { enabled: false }, owner.token);
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    expect((await api.delete(`/webhooks/${res.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/webhooks?daoId=${dao.daoId}`, { token: owner.token })).body.items).toEqual([]);
  });

  it('refuses bad input with 400: unknown events, storage events on a DAO, a non-URL', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    for (const body of [
      { url: 'https://example.org/h', events: ['nope'], daoId: dao.daoId },
      { url: 'https://example.org/h', events: ['ipfs:pin.verified'], daoId: dao.daoId },
      { url: 'https://example.org/h', events: ['vote_cast'] },
      { url: 'not a url', events: ['vote_cast'], daoId: dao.daoId },
      { url: 'https://example.org/h', events: [], daoId: dao.daoId },
    ]) {
      const res = await api.post('/webhooks', body, { token: owner.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    // any user may subscribe to their own storage events
    const own = await api.post(
      '/webhooks',
      { url: 'https://example.org/h', events: ['ipfs:pin.failed'] },
      { token: owner.token },
    );
    expect(own.status).toBe(201);
    expect(own.body.daoId).toBeNull();
  });

  it('authorization: a non-admin gets 403 on a DAO, 404 on another user’s webhook; no session 401', async () => {
    const owner = await memberUser(api);
    const other = await memberUser(api);
    const dao = await createDao(api, owner);
    const hook = await subscribe(owner, dao.daoId, 'https://example.org/a');
    const refused = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post(
          '/webhooks',
          { url: 'https://example.org/x', events: ['vote_cast'], daoId: dao.daoId },
          { token: other.token },
        ),
      ),
    );
    expect(refused.map((r) => r.status)).toEqual(Array(8).fill(403));
    expect(refused[0]!.body.reason).toBe('NOT_DAO_ADMIN');
    expect((await api.get(`/webhooks?daoId=${dao.daoId}`, { token: other.token })).status).toBe(403);
    const unknownDao = await api.post(
      '/webhooks',
      { url: 'https://example.org/x', events: ['vote_cast'], daoId: '00000000-0000-4000-8000-000000000000' },
      { token: owner.token },
    );
    expect(unknownDao.status).toBe(404);
    const attempts = await Promise.all([
      api.get(`/webhooks/${hook.id}/deliveries`, { token: other.token }),
      patch(`/webhooks/${hook.id}`, { url: 'https://evil.example/' }, other.token),
      api.post(`/webhooks/${hook.id}/rotate-secret`, {}, { token: other.token }),
      api.post(`/webhooks/${hook.id}/test`, {}, { token: other.token }),
      api.delete(`/webhooks/${hook.id}`, { token: other.token }),
      // an id that does not exist answers the same
      api.delete('/webhooks/00000000-0000-4000-8000-000000000000', { token: other.token }),
    ]);
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await api.get('/webhooks')).status).toBe(401);
    // unchanged for its owner
    const mine = await api.get(`/webhooks?daoId=${dao.daoId}`, { token: owner.token });
    expect(mine.body.items[0]).toMatchObject({ id: hook.id, url: 'https://example.org/a' });
  });
});

describe('delivery', () => {
  it('signs with the Standard Webhooks scheme; the body is the live stream envelope; 1 KiB kept', async () => {
    const rx = await receiver();
    try {
      clock.set(Date.now());
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const hook = await subscribe(owner, dao.daoId, rx.url);
      expect((await patch(`/daos/${dao.daoId}`, { description: 'signed' }, owner.token)).status).toBe(200);
      const [d] = await until(t, async () => {
        const list = await deliveries(owner, hook.id);
        expect(list[0]?.status).toBe('succeeded');
        return list;
      });
      expect(rx.got).toHaveLength(1);
      const { headers, body } = rx.got[0]!;
      expect(headers['webhook-id']).toBe(d!.id);
      expect(headers['webhook-signature']).toMatch(/^v1,/);
      // verified as a receiver would, with the library and the secret shown at creation
      const payload = new Webhook(hook.secret).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }) as Record<string, unknown>;
      expect(payload).toMatchObject({
        id: expect.any(Number),
        type: 'dao_updated',
        daoId: dao.daoId,
        occurredAt: expect.any(String),
        data: { daoId: dao.daoId, changes: { description: expect.any(Object) } },
      });
      // the same envelope as the stream's replay
      const stored = await api.get(`/daos/${dao.daoId}`);
      expect(stored.status).toBe(200);
      // a wrong secret fails verification
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(body, {
          'webhook-id': String(headers['webhook-id']),
          'webhook-timestamp': String(headers['webhook-timestamp']),
          'webhook-signature': String(headers['webhook-signature']),
        }),
      ).toThrow();
      expect(d).toMatchObject({ attempt: 1, responseStatus: 200, error: null });
      expect(d!.durationMs).toEqual(expect.any(Number));
      expect(d!.responseBody).toHaveLength(1024);

      // the test button and redelivery send signed deliveries too
      const test = await api.post(`/webhooks/${hook.id}/test`, {}, { token: owner.token });
      expect(test.status).toBe(202);
      const again = await api.post(
        `/webhooks/${hook.id}/deliveries/${d!.id}/redeliver`,
        {},
        { token: owner.token },
      );
      expect(again.status).toBe(202);
      await until(t, async () => expect(rx.got).toHaveLength(3));
      const types = rx.got
        .slice(1)
        .map((g) => (JSON.parse(g.body) as { type: string }).type)
        .sort();
      expect(types).toEqual(['dao_updated', 'webhook.test']);
      // a redelivery is a new message id
      expect(new Set(rx.got.map((g) => g.headers['webhook-id'])).size).toBe(3);
    } finally {
      await rx.close();
    }
  });

  it('one queued row per event, fanned out; a late copy is not sent again; a dead claim is sent after its lease, same ids', async () => {
    const rx = await receiver();
    const rx2 = await receiver();
    try {
      clock.set(Date.now());
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const a = await subscribe(owner, dao.daoId, rx.url);
      const b = await subscribe(owner, dao.daoId, rx2.url);
      expect((await patch(`/daos/${dao.daoId}`, { description: 'fanned out' }, owner.token)).status).toBe(
        200,
      );
      await until(t, async () => {
        expect((await deliveries(owner, a.id))[0]?.status).toBe('succeeded');
        expect((await deliveries(owner, b.id))[0]?.status).toBe('succeeded');
      });
      const [first] = await deliveries(owner, a.id);
      const eventId = (JSON.parse(rx.got[0]!.body) as { id: number }).id;
      expect((JSON.parse(rx2.got[0]!.body) as { id: number }).id).toBe(eventId);
      // the event's queue row went with its first attempts' outcomes
      const queued = () =>
        t.app.svc.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, eventId));
      expect(await queued()).toEqual([]);

      // another instance's copy of the event, queued after it was sent: claimed, found sent, not sent again
      await t.app.svc.db.insert(webhookEvents).values({ eventId, nextAttemptAt: clock.now() });
      await until(t, async () => expect(await queued()).toEqual([]));
      expect(rx.got).toHaveLength(1);
      expect(rx2.got).toHaveLength(1);

      // as if an instance had claimed the event, sent it and died before writing the outcomes: nothing is
      // sent until its lease ends, then the event goes out again under the same webhook-id per endpoint
      await t.app.svc.db.delete(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
      await t.app.svc.db
        .insert(webhookEvents)
        .values({ eventId, nextAttemptAt: new Date(clock.now().getTime() + 60_000) });
      await t.app.webhookWorker.tick();
      expect(rx.got).toHaveLength(1);
      clock.advance(60_000);
      await until(t, async () => {
        expect(rx.got).toHaveLength(2);
        expect(rx2.got).toHaveLength(2);
      });
      expect(rx.got[1]!.headers['webhook-id']).toBe(first!.id);
      expect(rx2.got[1]!.headers['webhook-id']).toBe(rx2.got[0]!.headers['webhook-id']);
      expect(rx2.got[0]!.headers['webhook-id']).not.toBe(first!.id);
      await until(t, async () => {
        expect(await deliveries(owner, a.id)).toMatchObject([{ id: first!.id, status: 'succeeded' }]);
        expect(await deliveries(owner, b.id)).toHaveLength(1);
      });
      expect(await queued()).toEqual([]);
    } finally {
      await rx.close();
      await rx2.close();
    }
  });

  it('a disabled webhook receives nothing, the enabled one beside it does; enabled again, later events reach it', async () => {
    const on = await receiver();
    const off = await receiver();
    try {
      clock.set(Date.now());
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const a = await subscribe(owner, dao.daoId, on.url);
      const b = await subscribe(owner, dao.daoId, off.url);
      expect((await patch(`/webhooks/${b.id}`, { enabled: false }, owner.token)).status).toBe(200);
      expect((await patch(`/daos/${dao.daoId}`, { description: 'one' }, owner.token)).status).toBe(200);
      await until(t, async () => expect(on.got).toHaveLength(1));
      await t.app.webhookWorker.tick();
      expect(off.got).toHaveLength(0);
      expect(await deliveries(owner, b.id)).toEqual([]);
      expect((await patch(`/webhooks/${b.id}`, { enabled: true }, owner.token)).status).toBe(200);
      expect((await patch(`/daos/${dao.daoId}`, { description: 'two' }, owner.token)).status).toBe(200);
      await until(t, async () => {
        expect(on.got).toHaveLength(2);
        expect(off.got).toHaveLength(1);
      });
      expect(off.got[0]!.body).toContain('"two"');
      expect(await deliveries(owner, a.id)).toHaveLength(2);
      expect(await deliveries(owner, b.id)).toHaveLength(1);
    } finally {
      await on.close();
      await off.close();
    }
  });

  it("the discussion's events: a comment posted and then edited reach a subscriber, in order", async () => {
    const rx = await receiver();
    try {
      clock.set(Date.now());
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const proposal = await createProposal(api, owner, dao.daoId);
      await subscribe(owner, dao.daoId, rx.url, ['comment_posted', 'comment_updated']);
      const posted = await api.post(
        `/proposals/${proposal.proposalId}/comments`,
        { body: 'first thoughts' },
        { token: owner.token },
      );
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      const edited = await patch(`/comments/${posted.body.id}`, { body: 'second thoughts' }, owner.token);
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      await until(t, async () => expect(rx.got).toHaveLength(2));
      const bodies = rx.got.map((g) => JSON.parse(g.body) as Record<string, any>).sort((a, b) => a.id - b.id);
      expect(bodies.map((b) => b.type)).toEqual(['comment_posted', 'comment_updated']);
      expect(bodies[0]).toMatchObject({
        daoId: dao.daoId,
        proposalId: proposal.proposalId,
        data: { comment: { id: posted.body.id, body: 'first thoughts' } },
      });
      expect(bodies[1]).toMatchObject({
        data: { change: 'edited', comment: { id: posted.body.id, body: 'second thoughts' } },
      });
    } finally {
      await rx.close();
    }
  });

  it('retries on the schedule: a receiver down, then up, gets it on the second attempt 5 s later', async () => {
    const rx = await receiver();
    const port = rx.port;
    await rx.close(); // down: connection refused
    clock.set(Date.now());
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const hook = await subscribe(owner, dao.daoId, `http://127.0.0.1:${port}/hook`);
    expect((await patch(`/daos/${dao.daoId}`, { description: 'retry' }, owner.token)).status).toBe(200);
    const [failed] = await until(t, async () => {
      const list = await deliveries(owner, hook.id);
      expect(list[0]?.attempt).toBe(1);
      return list;
    });
    expect(failed).toMatchObject({
      status: 'pending',
      responseStatus: null,
      error: expect.stringMatching(/connection failed/),
    });
    const up = await receiver(port);
    try {
      // not yet due: 4 s later nothing is sent
      clock.advance(4000);
      await t.app.webhookWorker.tick();
      expect(up.got).toHaveLength(0);
      clock.advance(1000);
      const [ok] = await until(t, async () => {
        const list = await deliveries(owner, hook.id);
        expect(list[0]?.status).toBe('succeeded');
        return list;
      });
      expect(ok).toMatchObject({ attempt: 2, responseStatus: 200 });
      expect(up.got).toHaveLength(1);
    } finally {
      await up.close();
    }
  });

  it('an endpoint failing every attempt (5 s … 10 h) is disabled and its owner mailed', async () => {
    const rx = await receiver();
    rx.state.status = 503;
    try {
      clock.set(Date.now());
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const hook = await subscribe(owner, dao.daoId, rx.url);
      expect((await patch(`/daos/${dao.daoId}`, { description: 'doomed' }, owner.token)).status).toBe(200);
      const delays = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6];
      for (let attempt = 1; attempt <= 8; attempt++) {
        await until(t, async () => expect((await deliveries(owner, hook.id))[0]?.attempt).toBe(attempt));
        const next = delays[attempt - 1];
        if (next === undefined) break;
        // one millisecond early is too early
        clock.advance(next - 1);
        await t.app.webhookWorker.tick();
        expect((await deliveries(owner, hook.id))[0]?.attempt).toBe(attempt);
        clock.advance(1);
      }
      const [last] = await deliveries(owner, hook.id);
      expect(last).toMatchObject({ status: 'failed', attempt: 8, responseStatus: 503 });
      expect(rx.got).toHaveLength(8);
      const list = await api.get(`/webhooks?daoId=${dao.daoId}`, { token: owner.token });
      expect(list.body.items[0]).toMatchObject({ enabled: false, disabledAt: expect.any(String) });
      const outbox = await api.get('/dev/outbox');
      const mails = (outbox.body.items ?? outbox.body) as { to: string; subject: string }[];
      expect(
        mails.filter((m) => m.to === owner.email && /webhook was disabled/.test(m.subject)),
      ).toHaveLength(1);
      // a disabled endpoint gets nothing new
      expect((await patch(`/daos/${dao.daoId}`, { description: 'after' }, owner.token)).status).toBe(200);
      await t.app.webhookWorker.tick();
      expect(rx.got).toHaveLength(8);
    } finally {
      await rx.close();
    }
  });
});

describe('storage events', () => {
  it("a user's storage webhook gets their pin.verified; another user's does not", async () => {
    const rx = await receiver();
    try {
      clock.set(Date.now());
      const user = await memberUser(api);
      const other = await memberUser(api);
      const mine = await api.post(
        '/webhooks',
        { url: rx.url, events: ['ipfs:pin.verified'] },
        { token: user.token },
      );
      expect(mine.status).toBe(201);
      const theirs = await api.post(
        '/webhooks',
        { url: rx.url, events: ['ipfs:pin.verified'] },
        { token: other.token },
      );
      expect(theirs.status).toBe(201);
      const up = await uploadBytes(api, user.token, `webhook ${Math.random()}`, 'note.txt', 'text/plain');
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      await until(t, async () => {
        const list = await deliveries(user, mine.body.id);
        expect(list[0]?.status).toBe('succeeded');
      });
      expect(rx.got).toHaveLength(1);
      const payload = new Webhook(mine.body.secret).verify(rx.got[0]!.body, {
        'webhook-id': String(rx.got[0]!.headers['webhook-id']),
        'webhook-timestamp': String(rx.got[0]!.headers['webhook-timestamp']),
        'webhook-signature': String(rx.got[0]!.headers['webhook-signature']),
      });
      expect(payload).toMatchObject({
        id: null,
        type: 'ipfs:pin.verified',
        data: { cid: up.body.cid, owner: user.wallet.address, verified: true },
      });
      expect(await deliveries(other, theirs.body.id)).toEqual([]);
      // each lists their own; a DAO's webhooks are not among them
      const listed = await api.get('/webhooks', { token: user.token });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((w: { id: string }) => w.id)).toEqual([mine.body.id]);
    } finally {
      await rx.close();
    }
  });
});

describe('safety (WEBHOOK_ALLOW_PRIVATE_NETWORKS off)', () => {
  let strict: TestApp;
  let sapi: ApiClient;
  beforeAll(async () => {
    strict = await startTestApp();
    sapi = apiClient(strict.url);
  });
  afterAll(() => strict?.close());

  it('plain http is refused at subscription', async () => {
    const owner = await memberUser(sapi);
    const dao = await createDao(sapi, owner);
    const res = await sapi.post(
      '/webhooks',
      { url: 'http://example.org/h', events: ['vote_cast'], daoId: dao.daoId },
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', reason: 'VALIDATION_FAILED' });
  });

  it('loopback, 10.x, metadata and a name resolving to loopback are refused at send time', async () => {
    const owner = await memberUser(sapi);
    const dao = await createDao(sapi, owner);
    const urls = [
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://localhost/h',
    ];
    const hooks = [];
    for (const url of urls) {
      const res = await sapi.post(
        '/webhooks',
        { url, events: ['dao_updated'], daoId: dao.daoId },
        { token: owner.token },
      );
      expect(res.status, url).toBe(201);
      hooks.push(res.body.id as string);
    }
    expect(
      (await sapi.request('PATCH', `/daos/${dao.daoId}`, { description: 'x' }, { token: owner.token }))
        .status,
    ).toBe(200);
    for (const id of hooks) {
      const [d] = await until(strict, async () => {
        const res = await sapi.get(`/webhooks/${id}/deliveries`, { token: owner.token });
        expect(res.body.items[0]?.attempt).toBe(1);
        return res.body.items;
      });
      expect(d).toMatchObject({
        status: 'pending',
        responseStatus: null,
        error: expect.stringMatching(/not (an )?allowed/),
      });
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('two instances on one PostgreSQL', () => {
  it('each event is delivered once although both instances queue and send', async () => {
    const rx = await receiver();
    const b = await startTestApp({ databaseUrl: t.databaseUrl!, clock, env });
    try {
      clock.set(Date.now());
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const hook = await subscribe(owner, dao.daoId, rx.url);
      const apiB = apiClient(b.url);
      const n = 30;
      const changes = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          (i % 2 ? api : apiB).request(
            'PATCH',
            `/daos/${dao.daoId}`,
            { description: `d${i}` },
            { token: owner.token },
          ),
        ),
      );
      expect(changes.map((c) => c.status)).toEqual(Array(n).fill(200));
      await vi.waitFor(
        async () => {
          await Promise.all([t.app.webhookWorker.tick(), b.app.webhookWorker.tick()]);
          const list = await deliveries(owner, hook.id);
          expect(
            list.filter((d) => d.status === 'succeeded'),
            JSON.stringify(list.filter((d) => d.status !== 'succeeded')),
          ).toHaveLength(n);
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(rx.got).toHaveLength(n);
      const eventIds = rx.got.map((g) => (JSON.parse(g.body) as { id: number }).id);
      expect(new Set(eventIds).size).toBe(n);
      expect((await deliveries(owner, hook.id)).every((d) => d.attempt === 1)).toBe(true);
    } finally {
      await b.close();
      await rx.close();
    }
  });

  // last: it stops the first app's worker
  it('events committed while no instance queued them are queued by the next one that starts', async () => {
    const rx = await receiver();
    clock.set(Date.now());
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const hook = await subscribe(owner, dao.daoId, rx.url);
    // the only instance stops queueing (as if killed): its changes still commit
    await t.app.webhookWorker.stop();
    expect((await patch(`/daos/${dao.daoId}`, { description: 'while down' }, owner.token)).status).toBe(200);
    expect((await patch(`/daos/${dao.daoId}`, { description: 'still down' }, owner.token)).status).toBe(200);
    expect(await deliveries(owner, hook.id)).toEqual([]);
    const b = await startTestApp({ databaseUrl: t.databaseUrl!, clock, env });
    try {
      await until(b, async () => {
        const list = await deliveries(owner, hook.id);
        expect(list.filter((d) => d.status === 'succeeded')).toHaveLength(2);
      });
      const sent = rx.got.map(
        (g) =>
          (JSON.parse(g.body) as { data: { changes: { description: { to: string } } } }).data.changes
            .description.to,
      );
      expect(sent.sort()).toEqual(['still down', 'while down']);
    } finally {
      await b.close();
      await rx.close();
    }
  });
});
