import { listSessions, revokeOtherSessions, revokeSession } from '@plenum/core';
import { paged, pageQuery, sessionIdInput, sessionInfoSchema, sessionsEndedSchema } from '@plenum/validators';
import { z } from 'zod';
import { clientOf } from '../client';
import { authedProcedure } from '../trpc';

const tags = ['auth'];

/** The caller's sessions and devices; merged into the `auth` router. See docs/accounts.md. */
export const sessionProcedures = {
  sessions: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/sessions',
        tags,
        summary: 'Your signed-in sessions and devices, newest first (needs a signed-in session)',
      },
    })
    .input(z.strictObject(pageQuery).optional())
    .output(paged(sessionInfoSchema))
    .query(({ ctx, input }) =>
      listSessions(ctx.svc, { principal: ctx.principal, page: input?.page ?? 1, limit: input?.limit ?? 50 }),
    ),

  revokeSession: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/auth/sessions/{id}',
        tags,
        summary: 'Sign out one of your sessions at once',
      },
      successStatus: 204,
    })
    .input(sessionIdInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const { current } = await revokeSession(ctx.svc, {
        principal: ctx.principal,
        id: input.id,
        client: clientOf(ctx),
      });
      if (current) ctx.setSessionCookie('', { maxAgeSeconds: 0 });
    }),

  revokeOtherSessions: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/sessions/revoke-others',
        tags,
        summary: 'Sign out of every session but this one',
      },
    })
    .input(z.void())
    .output(sessionsEndedSchema)
    .mutation(({ ctx }) => revokeOtherSessions(ctx.svc, { principal: ctx.principal, client: clientOf(ctx) })),
};
