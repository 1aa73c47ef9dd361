import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { freshDatabase, TEST_DB } from './support/app';
import { memberUser } from './support/factories';
import { createDao } from './support/governance';
import { apiClient } from './support/http';
import { startServerProcess } from './support/server-process';

/**
 * Webhooks across a crash (docs/webhooks.md, "Delivery"): the server is a real child process on real
 * PostgreSQL, killed with SIGKILL between two attempts of a delivery and right after an event commits.
 * The restarted server sends the retry (the same message id) and the event the dead one may not have
 * queued.
 */

interface Got {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

async function receiver() {
  const got: Got[] = [];
  const state = { status: 500 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = state.status;
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    got,
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe.runIf(TEST_DB === 'postgres')('webhooks across kill -9', () => {
  it('a failed attempt is retried by the restarted server with the same message id; an event committed just before the kill is delivered', async () => {
    const rx = await receiver();
    const db = await freshDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-webhook-crash-'));
    const env = { DATABASE_URL: db.url!, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SECRET_KEY: 'k'.repeat(48) };
    let server = await startServerProcess(env, { dataDir });
    try {
      let api = apiClient(server.url);
      const owner = await memberUser(api);
      const dao = await createDao(api, owner);
      const hook = await api.post(
        '/webhooks',
        { url: rx.url, events: ['dao_updated'], daoId: dao.daoId },
        { token: owner.token },
      );
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const update = (description: string) =>
        api.request('PATCH', `/daos/${dao.daoId}`, { description }, { token: owner.token });
      const deliveries = async () => {
        const res = await api.get(`/webhooks/${hook.body.id}/deliveries`, { token: owner.token });
        expect(res.status).toBe(200);
        return res.body.items as { id: string; status: string; attempt: number }[];
      };

      // the first attempt fails (the receiver answers 500) and is recorded as such
      expect((await update('before the crash')).status).toBe(200);
      const [failed] = await vi.waitFor(
        async () => {
          const list = await deliveries();
          expect(list[0]).toMatchObject({ status: 'pending', attempt: 1 });
          return list;
        },
        { timeout: 30_000, interval: 50 },
      );
      expect(rx.got[0]).toMatchObject({ answered: 500 });
      expect(rx.got[0]!.headers['webhook-id']).toBe(failed!.id);

      // an event committed, then kill -9 at once: the dead server may not have queued it
      expect((await update('right before the kill')).status).toBe(200);
      const dead = server.child;
      dead.kill('SIGKILL');
      if (dead.exitCode === null && dead.signalCode === null) await new Promise((r) => dead.once('exit', r));

      rx.state.status = 200;
      server = await startServerProcess(env, { dataDir });
      api = apiClient(server.url);
      // the retry comes on its schedule (5 s after the failed attempt), from the restarted server
      await vi.waitFor(
        () => {
          const ok = rx.got.filter((g) => g.answered === 200);
          expect(ok.map((g) => g.headers['webhook-id'])).toContain(failed!.id);
          expect(ok.some((g) => g.body.includes('right before the kill'))).toBe(true);
        },
        { timeout: 60_000, interval: 100 },
      );
      const retried = rx.got.find((g) => g.answered === 200 && g.headers['webhook-id'] === failed!.id)!;
      expect(retried.body).toContain('before the crash');
      await vi.waitFor(
        async () => {
          const list = await deliveries();
          expect(list).toHaveLength(2);
          expect(list.every((d) => d.status === 'succeeded')).toBe(true);
          expect(list.find((d) => d.id === failed!.id)).toMatchObject({ attempt: 2 });
        },
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      await server.stop();
      await rx.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
