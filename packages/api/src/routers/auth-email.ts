import { confirmEmailChange, requestEmailChange, undoEmailChange } from '@plenum/core';
import {
  emailChangedSchema,
  emailChangeInput,
  emailChangeTokenInput,
  messageSchema,
} from '@plenum/validators';
import { clientOf } from '../client';
import { authedProcedure, publicProcedure } from '../trpc';

const tags = ['auth'];
const LINK_REFUSALS = [
  'EMAIL_CHANGE_TOKEN_INVALID',
  'EMAIL_CHANGE_TOKEN_USED',
  'EMAIL_CHANGE_TOKEN_EXPIRED',
] as const;

/**
 * Changing the email address: asked for signed in, confirmed by the link to the new address, undone by
 * the link to the old one; merged into the `auth` router. See docs/accounts.md, "Changing the email address".
 */
export const emailProcedures = {
  requestEmailChange: authedProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/email',
        tags,
        summary:
          'Ask to change your email address with your password (or, without one, a code): a link goes to the new address',
        description:
          'Always the same 202 whether or not the new address belongs to another account; the confirmation tells (409 EMAIL_TAKEN). Needs a signed-in session.',
      },
      successStatus: 202,
      errors: {
        400: ['VALIDATION_FAILED', 'EMAIL_UNCHANGED', 'INVALID_CURRENT_PASSWORD', 'INVALID_MFA_CODE'],
        403: ['SESSION_REQUIRED'],
      },
    })
    .input(emailChangeInput)
    .output(messageSchema)
    .mutation(({ ctx, input }) =>
      requestEmailChange(ctx.svc, { principal: ctx.principal, client: ctx.ip, ...input }),
    ),

  confirmEmailChange: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/email/confirm',
        tags,
        protect: false,
        summary:
          'Confirm a new email address with the token mailed to it (the old address gets a way to undo it)',
      },
      errors: { 400: ['VALIDATION_FAILED', ...LINK_REFUSALS], 409: ['EMAIL_TAKEN'] },
    })
    .input(emailChangeTokenInput)
    .output(emailChangedSchema)
    .mutation(({ ctx, input }) => confirmEmailChange(ctx.svc, { ...input, client: clientOf(ctx) })),

  undoEmailChange: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/email/undo',
        tags,
        protect: false,
        summary:
          'Undo an email change within 72 hours with the token mailed to the old address (every session ends; a password reset link follows)',
      },
      errors: { 400: ['VALIDATION_FAILED', ...LINK_REFUSALS], 409: ['EMAIL_TAKEN'] },
    })
    .input(emailChangeTokenInput)
    .output(messageSchema)
    .mutation(({ ctx, input }) => undoEmailChange(ctx.svc, { ...input, client: clientOf(ctx) })),
};
