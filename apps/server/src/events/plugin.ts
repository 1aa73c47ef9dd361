import type { ServerPlugin } from '../http/routes';
import type { PluginContext } from '../plugins';
import { EventBus } from './bus';
import { attachSocketIo, closeSocketIo } from './socket-io';

/**
 * Live events: this instance's event bus (given to procedures as `svc.eventBus`, used by the tRPC
 * subscription `events.stream`) and the Socket.IO endpoint at /socket.io.
 */
export async function eventsPlugin({ svc, dbHandle, env }: PluginContext): Promise<ServerPlugin> {
  const bus = new EventBus(svc.db, dbHandle, svc.log.child({ component: 'events' }));
  await bus.start();
  svc.eventBus = bus;
  let io: ReturnType<typeof attachSocketIo> | null = null;
  return {
    name: 'events',
    attach(server) {
      io = attachSocketIo(server, {
        svc,
        bus,
        corsOrigins: [new URL(env.APP_URL).origin, ...env.CORS_ORIGINS],
      });
    },
    async stop() {
      if (io) await closeSocketIo(io);
      await bus.stop();
    },
  };
}
