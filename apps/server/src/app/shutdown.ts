import type { Server } from 'node:http';
import type { DbHandle } from '@plenum/db';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../env';
import type { createServices } from '../services';
import type { Lifecycle } from './lifecycle';
import type { WebSockets } from './websockets';

export interface ShutdownParts {
  env: Env;
  app: FastifyInstance;
  lifecycle: Lifecycle;
  sockets: WebSockets;
  internalMetrics: Server | null;
  services: Awaited<ReturnType<typeof createServices>>;
  dbHandle: DbHandle;
}

/**
 * A graceful stop (docs/operations.md, "Shutdown"): not ready and no new requests (503 SHUTTING_DOWN),
 * WebSocket clients told to reconnect elsewhere (they resume by last event id), requests in flight
 * finished (their votes commit: the services still run), then the background work (queued votes
 * committed first) and the database. Connections still busy after SHUTDOWN_TIMEOUT less 2 s are cut.
 */
export async function shutdown({
  env,
  app,
  lifecycle,
  sockets,
  internalMetrics,
  services,
  dbHandle,
}: ShutdownParts) {
  lifecycle.draining = true;
  lifecycle.closing = true;
  internalMetrics?.close();
  await sockets.close();
  const cut = setTimeout(
    () => app.server.closeAllConnections(),
    Math.max(1_000, env.SHUTDOWN_TIMEOUT - 2_000),
  );
  cut.unref();
  await app.close();
  clearTimeout(cut);
  await services.stop();
  await dbHandle.close();
}
