import { eventsPlugin } from './events/plugin';
import { governancePlugin } from './governance/plugin';
import type { PluginContext, ServerPlugin } from './http/routes';
import { storagePlugin } from './routes/storage/index';
import { usersPlugin } from './routes/users';

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
