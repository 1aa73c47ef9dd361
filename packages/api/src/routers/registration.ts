import { listOutbox, registerUser, resendVerification, verifyEmail } from '@plenum/core';
import {
  outboxItem,
  registerInput,
  resendVerificationInput,
  userSchema,
  verifyEmailInput,
  verifyEmailOutput,
} from '@plenum/validators';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { publicProcedure, router } from '../trpc';

const tags = ['users'];

export const registrationRouter = router({
  register: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/users',
        tags,
        protect: false,
        summary: 'Register (a verification email is sent)',
      },
      successStatus: 201,
    })
    .input(registerInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => registerUser(ctx.svc, input)),

  verifyEmail: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/users/verify-email',
        tags,
        protect: false,
        summary: 'Verify an email address with the mailed token',
      },
    })
    .input(verifyEmailInput)
    .output(verifyEmailOutput)
    .mutation(({ ctx, input }) => verifyEmail(ctx.svc, input)),

  resendVerification: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/users/resend-verification',
        tags,
        protect: false,
        summary: 'Send the verification email again (always 202)',
      },
      successStatus: 202,
    })
    .input(resendVerificationInput)
    .output(z.object({ message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      await resendVerification(ctx.svc, input);
      return {
        message: 'If the address is registered and not yet verified, a new verification email is on its way.',
      };
    }),
});

export const devRouter = router({
  outbox: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/dev/outbox',
        tags: ['development'],
        protect: false,
        summary: 'Development outbox (only while no email provider is configured)',
      },
    })
    .input(z.void())
    .output(z.object({ items: z.array(outboxItem) }))
    .query(async ({ ctx }) => {
      if (ctx.svc.emailProviderConfigured) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
      return { items: await listOutbox(ctx.svc) };
    }),
});
