import {
  AppError,
  listOutbox,
  outboxReadable,
  registerUser,
  resendVerification,
  verifyEmail,
} from '@plenum/core';
import {
  emailVerifiedSchema,
  outboxItem,
  registerInput,
  resendVerificationInput,
  userSchema,
  verifyEmailInput,
} from '@plenum/validators';
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
    .output(emailVerifiedSchema)
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
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/dev/outbox',
        tags: ['development'],
        protect: false,
        summary: 'Development outbox (no email provider: local trial or admins only)',
        description:
          'Every mail the server would have sent, newest first, while no email provider is configured. ' +
          'It answers an admin from anywhere, and anyone else only from a loopback socket address (never ' +
          'X-Forwarded-For) to an instance whose APP_URL is on localhost; to everyone else it answers 404 ' +
          'like an unknown path. Absent once an email provider is configured (docs/operations.md, "Email").',
      },
    })
    .input(z.void())
    .output(z.object({ items: z.array(outboxItem) }))
    .query(async ({ ctx }) => {
      const readable = outboxReadable({
        emailProviderConfigured: ctx.svc.emailProviderConfigured,
        appUrl: ctx.svc.config.appUrl,
        socketAddress: ctx.socketAddress,
        principal: ctx.principal,
      });
      // the 404 of a path that does not exist: nothing tells a visitor that the outbox is here
      if (!readable)
        throw new AppError(
          'NOT_FOUND',
          ctx.transport === 'rest'
            ? 'No route for GET /dev/outbox'
            : 'No procedure found on path "dev.outbox"',
        );
      return { items: await listOutbox(ctx.svc) };
    }),
});
