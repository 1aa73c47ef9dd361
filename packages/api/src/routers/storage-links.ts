import { createLink, listLinks, revokeLink } from '@plenum/core';
import {
  createdLinkSchema,
  createLinkInput,
  linkIdInput,
  listLinksInput,
  storageLinkSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { activeProcedure, authedProcedure, router } from '../trpc';
import { storageOf } from './storage-runtime';

const tags = ['storage'];

/** Signed expiring links to files (docs/storage.md, "Signed links"); the URL itself is a plain route. */
export const storageLinksRouter = router({
  create: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/ipfs/links',
        tags,
        summary:
          'A link that serves a file you may read, without credentials, for expiresIn seconds (≤ 7 days)',
      },
      successStatus: 201,
    })
    .input(createLinkInput)
    .output(createdLinkSchema)
    .mutation(({ ctx, input }) => createLink(storageOf(ctx), { userId: ctx.principal.userId, ...input })),

  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/ipfs/links',
        tags,
        summary: 'Your signed links (to one CID), newest first',
      },
    })
    .input(listLinksInput)
    .output(z.array(storageLinkSchema))
    .query(({ ctx, input }) => listLinks(storageOf(ctx), { userId: ctx.principal.userId, cid: input.cid })),

  revoke: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/ipfs/links/{id}',
        tags,
        summary: 'Revoke your signed link: its URL answers 403 LINK_REVOKED from now on',
      },
    })
    .input(linkIdInput)
    .output(storageLinkSchema)
    .mutation(({ ctx, input }) => revokeLink(storageOf(ctx), { userId: ctx.principal.userId, id: input.id })),
});
