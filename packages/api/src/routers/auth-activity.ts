import { listAccountEvents } from '@plenum/core';
import { accountEventListSchema, activityInput } from '@plenum/validators';
import { authedProcedure } from '../trpc';

const tags = ['auth'];

/** The caller's account activity; merged into the `auth` router. See docs/accounts.md, "Account activity". */
export const activityProcedures = {
  activity: authedProcedure
    .meta({
      // the account's security history: a token needs the `account` scope to read it
      scope: 'account',
      openapi: {
        method: 'GET',
        path: '/auth/activity',
        tags,
        summary:
          'Your account activity, newest first: sign-ins, failed attempts, password, email, factor, token and session changes',
      },
    })
    .input(activityInput.optional())
    .output(accountEventListSchema)
    .query(({ ctx, input }) =>
      listAccountEvents(ctx.svc, {
        userId: ctx.principal.userId,
        page: input?.page ?? 1,
        limit: input?.limit ?? 50,
        after: input?.after,
      }),
    ),
};
