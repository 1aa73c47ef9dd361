import { governanceRuntime, StatusScheduler } from '@plenum/core';
import type { ServerPlugin } from '../http/routes';
import type { PluginContext } from '../plugins';

/**
 * Governance background work: the proposal status scheduler (every instance runs one; row locks make each
 * step happen once) and, on shutdown, committing the votes still queued in the batcher.
 * The scheduler is exposed as `svc.governanceScheduler` so tests can drive it with `tick()`.
 */
export async function governancePlugin(ctx: PluginContext): Promise<ServerPlugin> {
  const scheduler = new StatusScheduler(ctx.svc);
  ctx.svc.governanceScheduler = scheduler;
  scheduler.start();
  return {
    name: 'governance',
    async stop() {
      await scheduler.stop();
      await governanceRuntime(ctx.svc).batcher.flush();
    },
  };
}
