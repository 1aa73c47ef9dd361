import { trustedOrigins } from '../http/csrf';
import type { PluginContext, ServerPlugin } from '../http/routes';
import { EventBus } from './bus';
import { SocketCorker } from './cork';
import { attachSocketIo, closeSocketIo } from './socket-io';

/**
 * Live events: this instance's event bus (given to procedures as `svc.eventBus`, used by the tRPC
 * subscription `events.stream`) and the Socket.IO endpoint at /socket.io.
 */
export async function eventsPlugin({ svc, dbHandle, env }: PluginContext): Promise<ServerPlugin> {
  const corker = new SocketCorker();
  const bus = new EventBus(svc.db, dbHandle, svc.log.child({ component: 'events' }), {
    aroundDelivery: (deliver) => corker.corked(deliver),
    revalidateMs: env.EVENTS_REVALIDATE_MS,
  });
  await bus.start();
  svc.eventBus = bus;
  let io: ReturnType<typeof attachSocketIo> | null = null;
  return {
    name: 'events',
    attach(server) {
      corker.track(server);
      io = attachSocketIo(server, {
        svc,
        bus,
        corsOrigins: [new URL(env.APP_URL).origin, ...env.CORS_ORIGINS],
        originPolicy: { trusted: trustedOrigins(env.APP_URL, env.CORS_ORIGINS, env.publicUrl) },
      });
    },
    async stop() {
      if (io) await closeSocketIo(io);
      await bus.stop();
    },
  };
}
