import type { AppRouter } from '@plenum/api';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from './support/app';
import { activeUser } from './support/factories';
import { apiClient } from './support/http';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function connect(token: string) {
  const errors: unknown[] = [];
  const wsClient = createWSClient({
    url: `${t.url.replace('http', 'ws')}/trpc`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: { token },
    lazy: { enabled: false, closeMs: 0 },
    retryDelayMs: () => 60_000,
    onError: (e) => errors.push(e),
  });
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
  return { client, wsClient, errors };
}

describe('tRPC over WebSocket', () => {
  it('accepts a valid token and serves procedures on the socket', async () => {
    const user = await activeUser(apiClient(t.url));
    const { client, wsClient } = connect(user.token);
    try {
      const me = await client.auth.me.query();
      expect(me.user.email).toBe(user.email);
    } finally {
      wsClient.close();
    }
  });

  it('refuses a bad token', async () => {
    const { client, wsClient } = connect('not-a-token');
    try {
      await expect(client.auth.nonce.query()).rejects.toThrow();
    } finally {
      wsClient.close();
    }
  });
});

describe('WebSocket upgrades elsewhere', () => {
  it('are refused with 404 instead of hanging', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/nowhere`);
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
    expect(status).toBe(404);
  });
});
