import {
  getContent,
  getMetadata,
  listPinsOfUser,
  pinForCaller,
  pinView,
  sessionEntityOf,
  setPinVisibility,
  storageUsage,
  unpinForCaller,
} from '@plenum/core';
import {
  cidInput,
  myPinsInput,
  paged,
  pinInput,
  pinSchema,
  setVisibilityInput,
  storageUsageSchema,
  unpinnedSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { activeProcedure, authedProcedure, publicProcedure, router } from '../trpc';
import { storageLinksRouter } from './storage-links';
import { storageOf } from './storage-runtime';

const tags = ['storage'];

export { storageOf };

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
    .input(pinInput)
    .output(z.object({ pin: pinSchema, created: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { pin, created } = await pinForCaller(storageOf(ctx), { userId: ctx.principal.userId, ...input });
      return { pin: pinView(pin), created };
    }),

  setVisibility: activeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/ipfs/pin/{cid}',
        tags,
        summary: 'Change who may read your pins of a CID: public, private (you) or dao (its members)',
      },
    })
    .input(setVisibilityInput)
    .output(z.array(pinSchema))
    .mutation(({ ctx, input }) =>
      setPinVisibility(storageOf(ctx), { userId: ctx.principal.userId, ...input }),
    ),

  links: storageLinksRouter,

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
