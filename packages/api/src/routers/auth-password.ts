import { changePassword, requestPasswordReset, resetPassword } from '@plenum/core';
import {
  changePasswordInput,
  messageSchema,
  passwordChangedSchema,
  passwordResetConfirmInput,
  passwordResetRequestInput,
} from '@plenum/validators';
import { clientOf } from '../client';
import { authedProcedure, publicProcedure } from '../trpc';

const tags = ['auth'];

/** Password change (signed in) and reset by email; merged into the `auth` router. See docs/accounts.md. */
export const passwordProcedures = {
  changePassword: authedProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/password',
        tags,
        summary: 'Change your password with the current one (your other sessions end, this one stays)',
      },
    })
    .input(changePasswordInput)
    .output(passwordChangedSchema)
    .mutation(({ ctx, input }) =>
      changePassword(ctx.svc, {
        principal: ctx.principal,
        client: ctx.ip,
        userAgent: ctx.userAgent,
        ...input,
      }),
    ),

  requestPasswordReset: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/password-reset',
        tags,
        protect: false,
        summary: 'Mail a password reset link (always 202, whether the address is registered or not)',
      },
      successStatus: 202,
    })
    .input(passwordResetRequestInput)
    .output(messageSchema)
    .mutation(async ({ ctx, input }) => {
      await requestPasswordReset(ctx.svc, input);
      return { message: 'If an account uses this address, a password reset link is on its way.' };
    }),

  resetPassword: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/password-reset/confirm',
        tags,
        protect: false,
        summary: 'Set a new password with the mailed token (every session of the account ends)',
      },
    })
    .input(passwordResetConfirmInput)
    .output(messageSchema)
    .mutation(({ ctx, input }) => resetPassword(ctx.svc, { ...input, client: clientOf(ctx) })),
};
