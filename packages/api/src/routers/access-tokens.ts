import { createAccessToken, listAccessTokens, revokeAccessToken } from '@plenum/core';
import {
  accessTokenSchema,
  createdTokenSchema,
  createTokenInput,
  paged,
  pageQuery,
  tokenIdInput,
} from '@plenum/validators';
import { z } from 'zod';
import { clientOf } from '../client';
import { authedProcedure, router } from '../trpc';

const tags = ['auth'];

/** Personal access tokens: `Authorization: Bearer plm_…` on every path and on the event sockets. */
export const accessTokensRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/tokens',
        tags,
        summary: 'Create a personal access token (shown once; needs a signed-in session)',
      },
      successStatus: 201,
    })
    .input(createTokenInput)
    .output(createdTokenSchema)
    .mutation(({ ctx, input }) =>
      createAccessToken(ctx.svc, { principal: ctx.principal, ...input, client: clientOf(ctx) }),
    ),

  list: authedProcedure
    // the list of credentials is the account's business, not a read a `read` token may do
    .meta({
      openapi: { method: 'GET', path: '/auth/tokens', tags, summary: 'Your active access tokens' },
      scope: 'account',
    })
    .input(z.strictObject(pageQuery).optional())
    .output(paged(accessTokenSchema))
    .query(({ ctx, input }) =>
      listAccessTokens(ctx.svc, {
        userId: ctx.principal.userId,
        page: input?.page ?? 1,
        limit: input?.limit ?? 50,
      }),
    ),

  revoke: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/auth/tokens/{id}',
        tags,
        summary: 'Revoke an access token at once',
      },
      successStatus: 204,
    })
    .input(tokenIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      revokeAccessToken(ctx.svc, { userId: ctx.principal.userId, id: input.id, client: clientOf(ctx) }),
    ),
});
