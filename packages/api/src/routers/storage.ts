import {
  AppError,
  getContent,
  getMetadata,
  listPinsOfUser,
  pinForCaller,
  pinView,
  type StorageServices,
  sessionEntityOf,
  storageUsage,
  unpinForCaller,
} from '@plenum/core';
import {
  cidInput,
  myPinsInput,
  paged,
  pinSchema,
  storageUsageSchema,
  unpinnedSchema,
} from '@plenum/validators';
import { z } from 'zod';
import type { ApiServices, Context } from '../context';
import { activeProcedure, authedProcedure, publicProcedure, router } from '../trpc';

const tags = ['storage'];

const hasStorage = (svc: ApiServices): svc is ApiServices & StorageServices => svc.storage !== null;

/** the services with their storage runtime; 503 while it is not running */
export function storageOf(ctx: Pick<Context, 'svc'>): StorageServices {
  if (!hasStorage(ctx.svc))
    throw new AppError('SERVICE_UNAVAILABLE', 'IPFS storage is not running', {
      reason: 'STORAGE_UNAVAILABLE',
    });
  return ctx.svc;
}

const content = z.unknown().meta({ description: 'the content, JSON-parsed when it parses, else the text' });

export const storageRouter = router({
  /** the caller's pins with file metadata, newest first (tRPC only: REST clients use GET /pins) */
  myPins: authedProcedure
    .input(myPinsInput)
    .output(paged(pinSchema))
    .query(({ ctx, input }) => listPinsOfUser(ctx.svc, { userId: ctx.principal.userId, ...input })),

  usage: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/ipfs/usage',
        tags,
        summary:
          'What you store against your quota: bytes used, your limit (null = unlimited), pinned and pending pins',
      },
    })
    .input(z.void())
    .output(storageUsageSchema)
    .query(({ ctx }) => storageUsage(ctx.svc, { userId: ctx.principal.userId })),

  get: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/ipfs/{cid}',
        tags,
        protect: false,
        summary:
          'Content of a CID (node first, then gateways): JSON-parsed when it parses, else text; ≤ 10 MB',
      },
    })
    .input(cidInput)
    .output(content)
    .query(async ({ ctx, input }) => {
      const svc = storageOf(ctx);
      return getContent(svc, {
        cid: input.cid,
        requester: await sessionEntityOf(svc, { userId: ctx.principal?.userId }),
      });
    }),

  metadata: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/ipfs/metadata/{cid}',
        tags,
        protect: false,
        summary:
          'A JSON metadata document with ipfs:// image fields resolved to URLs and base64 data: decoded',
      },
    })
    .input(cidInput)
    .output(content)
    .query(async ({ ctx, input }) => {
      const svc = storageOf(ctx);
      return getMetadata(svc, {
        ref: input.cid,
        requester: await sessionEntityOf(svc, { userId: ctx.principal?.userId }),
      });
    }),

  /** tRPC twin of POST /ipfs/pin/{cid} (a plain route, so that it can answer 201 or 200) */
  pin: activeProcedure
    .input(cidInput)
    .output(z.object({ pin: pinSchema, created: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { pin, created } = await pinForCaller(storageOf(ctx), {
        userId: ctx.principal.userId,
        cid: input.cid,
      });
      return { pin: pinView(pin), created };
    }),

  unpin: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/ipfs/unpin/{cid}',
        tags,
        summary: 'Remove your pin (any of your wallets); the node unpins when no owner is left',
      },
    })
    .input(cidInput)
    .output(unpinnedSchema)
    .mutation(({ ctx, input }) =>
      unpinForCaller(storageOf(ctx), { userId: ctx.principal.userId, cid: input.cid }),
    ),
});
