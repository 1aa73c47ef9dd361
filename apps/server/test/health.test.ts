import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, TEST_DB } from './support/app';
import { apiClient } from './support/http';

/** A TCP relay to PostgreSQL that the test can cut and restore: the database "goes away" for real. */
function relay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<number>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve(port);
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return { open, cut };
}

describe('health when the database goes away', () => {
  it.runIf(TEST_DB === 'postgres')(
    'answers 503 with the same shape, 503 on API calls, and recovers',
    async () => {
      const db = await freshDatabase();
      const target = new URL(db.url!);
      const r = relay(target);
      const port = await r.open();
      const viaRelay = new URL(db.url!);
      viaRelay.port = String(port);
      const t = await startTestApp({ databaseUrl: viaRelay.toString() });
      const api = apiClient(t.url);
      try {
        expect((await api.get('/health')).status).toBe(200);
        await r.cut();
        const down = await api.get('/health');
        expect(down.status).toBe(503);
        expect(down.body).toMatchObject({ status: 'degraded', db: 'down' });
        expect(down.body).toHaveProperty('version');
        expect(down.body).toHaveProperty('ipfs');
        const login = await api.post('/auth/login', { email: 'a@b.org', password: 'x' });
        expect(login.status).toBe(503);
        expect(login.body.code).toBe('SERVICE_UNAVAILABLE');
        await r.open();
        await expect.poll(async () => (await api.get('/health')).status, { timeout: 15_000 }).toBe(200);
      } finally {
        await t.close();
        await db.drop();
      }
    },
  );
});
