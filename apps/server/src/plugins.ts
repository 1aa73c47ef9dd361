import type { ApiServices } from '@plenum/api';
import type { DbHandle } from '@plenum/db';
import type { Env } from './env';
import { eventsPlugin } from './events/plugin';
import { governancePlugin } from './governance/plugin';
import type { ServerPlugin } from './http/routes';
import { storagePlugin } from './routes/storage/index';
import { usersPlugin } from './routes/users';

export interface PluginContext {
  svc: ApiServices;
  dbHandle: DbHandle;
  env: Env;
}

/**
 * Each domain's server-side parts (routes outside tRPC, sockets, background jobs), created once the
 * database is ready. A domain adds one line here.
 */
export async function createPlugins(ctx: PluginContext): Promise<ServerPlugin[]> {
  return [
    await usersPlugin(ctx),
    await eventsPlugin(ctx),
    await governancePlugin(ctx),
    await storagePlugin(ctx),
  ];
}
