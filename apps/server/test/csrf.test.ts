import { pins } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './support/app';
import { memberUser, PASSWORD, register, type TestUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * Cookie-authenticated writes from another origin of the same site (another port, a sibling
 * subdomain) are refused with 403 CSRF; the web app's origin, the API's own and Bearer requests from
 * anywhere keep working (docs/api.md, "Cross-site requests").
 */
let t: TestApp;
let api: ApiClient;
let user: TestUser;

const APP = 'http://localhost:3000';
const SIBLINGS = ['http://localhost:3001', 'http://evil.localhost:3000', 'null'];

beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
  user = await memberUser(api);
});
afterAll(() => t.close());

async function cookieSession(): Promise<string> {
  const res = await api.post('/auth/login', { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

const uploadForm = () => {
  const form = new FormData();
  form.append('file', new Blob(['csrf probe\n'], { type: 'text/plain' }), 'probe.txt');
  return form;
};

describe('cookie-authenticated writes', () => {
  for (const origin of SIBLINGS) {
    it(`from ${origin} are refused (multipart upload, body-less POSTs, tRPC) and change nothing`, async () => {
      const cookie = await cookieSession();
      const headers = { cookie, origin };
      const upload = await fetch(`${t.url}/ipfs/upload`, { method: 'POST', body: uploadForm(), headers });
      expect(upload.status).toBe(403);
      expect(await upload.json()).toMatchObject({ code: 'FORBIDDEN', reason: 'CSRF' });

      const logout = await api.post('/auth/logout', undefined, { headers });
      expect(logout.status).toBe(403);
      expect(logout.body.reason).toBe('CSRF');
      const pin = await api.post('/ipfs/pin/bafkqaaa', undefined, { headers });
      expect(pin.status).toBe(403);

      const trpc = await fetch(`${t.url}/trpc/auth.logout`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
      });
      expect(trpc.status).toBe(403);
      expect((await trpc.json()).error.data).toMatchObject({ code: 'FORBIDDEN', reason: 'CSRF' });

      // nothing happened: the session still works and no pin was made
      const me = await api.get('/auth/me', { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(await t.app.svc.db.select().from(pins).where(eq(pins.userId, user.id))).toHaveLength(0);
    });
  }

  it('without Origin, Sec-Fetch-Site naming another origin is refused; no browser headers at all pass', async () => {
    const cookie = await cookieSession();
    for (const site of ['same-site', 'cross-site']) {
      const res = await api.post('/auth/logout', undefined, { headers: { cookie, 'sec-fetch-site': site } });
      expect(res.status, site).toBe(403);
    }
    expect((await api.post('/auth/logout', undefined, { headers: { cookie } })).status).toBe(204);
  });

  it("from the web app's origin and from the API's own origin pass", async () => {
    let cookie = await cookieSession();
    expect((await api.post('/auth/logout', undefined, { headers: { cookie, origin: APP } })).status).toBe(
      204,
    );
    cookie = await cookieSession();
    const own = await api.post('/auth/logout', undefined, { headers: { cookie, origin: t.url } });
    expect(own.status).toBe(204);
  });

  it('Bearer requests pass from any origin, and reads with the cookie are not affected', async () => {
    const res = await fetch(`${t.url}/ipfs/upload`, {
      method: 'POST',
      body: uploadForm(),
      headers: { authorization: `Bearer ${user.token}`, origin: SIBLINGS[0]! },
    });
    expect(res.status).toBe(201);
    const cookie = await cookieSession();
    expect((await api.get('/auth/me', { headers: { cookie, origin: SIBLINGS[0]! } })).status).toBe(200);
  });
});

describe('streams opened with the cookie', () => {
  it('a tRPC WebSocket from another origin with only the cookie is refused', async () => {
    const cookie = await cookieSession();
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/trpc`, {
      headers: { cookie, origin: SIBLINGS[0]! },
    });
    const messages: string[] = [];
    ws.on('message', (m) => messages.push(m.toString()));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ id: 1, method: 'mutation', params: { path: 'auth.logout', input: null } }));
    const closed = await new Promise<boolean>((resolve) => {
      ws.once('close', () => resolve(true));
      const check = setInterval(() => {
        if (messages.length) {
          clearInterval(check);
          resolve(false);
        }
      }, 10);
    });
    if (!closed) expect(messages.join('\n')).toMatch(/FORBIDDEN|Cross-origin/);
    ws.close();
    expect((await api.get('/auth/me', { headers: { cookie } })).status).toBe(200);
  });

  it('a Socket.IO handshake from another origin with only the cookie is refused with CSRF', async () => {
    const cookie = await cookieSession();
    const socket = io(t.url, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie, origin: SIBLINGS[0]! },
      reconnection: false,
    });
    const err = await new Promise<{ data?: { reason?: string } }>((resolve) =>
      socket.once('connect_error', resolve),
    );
    socket.close();
    expect(err.data?.reason).toBe('CSRF');
  });
});

describe('the session cookie is Secure on https', () => {
  it('when APP_URL is https, or the request came over https through a trusted proxy', async () => {
    const https = await startTestApp({ env: { APP_URL: 'https://app.example.org' } });
    const proxied = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      for (const [app, headers] of [
        [https, {}],
        [proxied, { 'x-forwarded-proto': 'https' }],
      ] as const) {
        const client = apiClient(app.url);
        // registered, not verified: an https APP_URL is no local trial, so its outbox is not readable here
        // (docs/operations.md, "Email"), and signing in needs no verified address
        const email = uniqueEmail();
        expect((await register(client, { email })).status).toBe(201);
        const res = await client.post('/auth/login', { email, password: PASSWORD }, { headers });
        expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
      }
      const plain = await api.post('/auth/login', { email: user.email, password: PASSWORD });
      expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
    } finally {
      await https.close();
      await proxied.close();
    }
  });
});
