import { governanceRuntime, StatusScheduler } from '@plenum/core';
import { createDb } from '@plenum/db';
import type { PluginContext, ServerPlugin } from '../http/routes';

/**
 * Governance background work: the proposal status scheduler (every instance runs one; row locks make each
 * step happen once) and the vote batcher's own small connection pool on PostgreSQL, so a batch commit
 * never waits behind the request reads in the main pool. On shutdown, queued votes are committed first.
 * The scheduler is exposed as `svc.governanceScheduler` so tests can drive it with `tick()`.
 */
export async function governancePlugin(ctx: PluginContext): Promise<ServerPlugin> {
  const writer = ctx.env.DATABASE_URL
    ? await createDb({ databaseUrl: ctx.env.DATABASE_URL, maxConnections: 4 })
    : null;
  const runtime = governanceRuntime(ctx.svc, writer ? { writer: writer.db } : {});
  const scheduler = new StatusScheduler(ctx.svc);
  ctx.svc.governanceScheduler = scheduler;
  scheduler.start();
  return {
    name: 'governance',
    async stop() {
      await scheduler.stop();
      await runtime.batcher.flush();
      await writer?.close();
    },
  };
}
