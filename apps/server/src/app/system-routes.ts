import type { ApiServices } from '@plenum/api';
import type { DbHandle } from '@plenum/db';
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../version';
import type { Lifecycle } from './lifecycle';

export interface SystemRoutesOptions {
  svc: ApiServices;
  dbHandle: DbHandle;
  lifecycle: Lifecycle;
}

/**
 * /health and /ready (docs/operations.md, "Liveness and readiness"): system paths, so no credentials, no
 * rate limit, and answered while the database is down.
 */
export function registerSystemRoutes(
  app: FastifyInstance,
  { svc, dbHandle, lifecycle }: SystemRoutesOptions,
) {
  /** the IPFS provider's own answer */
  const storageStatus = async () => {
    const storage = svc.storage;
    if (!storage) return { provider: 'none', ok: false };
    const ok = await storage.node.status().then(
      (st) => st.ok,
      () => false,
    );
    // the embedded node's place on the network: peer id, listen addresses, connected peers
    const network = storage.node.network?.() ?? null;
    return { provider: storage.node.name, ok, ...(network ? { network } : {}) };
  };

  app.get('/health', { config: { system: true } }, async (_request, reply) => {
    // within ~500 ms whatever the database does: a known outage answers at once, else a ping with a deadline
    const dbOk = dbHandle.availability.up && (await dbHandle.availability.check());
    const ipfs = await storageStatus();
    return reply
      .code(dbOk ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: dbOk ? 'ok' : 'degraded', version: VERSION, db: dbOk ? 'ok' : 'down', ipfs });
  });

  // readiness for a load balancer: the database and the storage provider answer, and the instance is not
  // stopping. Migrations are always 'ok': the app applies them before it serves at all (createApp).
  app.get('/ready', { config: { system: true } }, async (_request, reply) => {
    const database = !lifecycle.draining && dbHandle.availability.up && (await dbHandle.availability.check());
    const storageOk = (await storageStatus()).ok;
    const ready = !lifecycle.draining && database && storageOk;
    reply.code(ready ? 200 : 503).header('Cache-Control', 'no-store');
    if (!ready) reply.header('Retry-After', '1');
    return {
      status: ready ? 'ready' : 'not_ready',
      checks: {
        database: database ? 'ok' : 'down',
        migrations: 'ok',
        storage: storageOk ? 'ok' : 'down',
        shutdown: lifecycle.draining,
      },
    };
  });
}
