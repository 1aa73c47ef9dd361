import { appRouter } from '@plenum/api';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContextFor } from './context';

/** The procedures over tRPC HTTP (/trpc/a.b, batches /trpc/a.b,c.d). */
export async function registerTrpc(app: FastifyInstance, contextFor: ContextFor) {
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }) =>
        contextFor(req, res, 'trpc'),
      responseMeta: ({ errors }: { errors: { code: string }[] }) =>
        errors.some((e) => e.code === 'SERVICE_UNAVAILABLE') ? { headers: { 'Retry-After': '1' } } : {},
    },
  });
}
