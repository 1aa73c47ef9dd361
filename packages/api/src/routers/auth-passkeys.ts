import {
  deletePasskey,
  listPasskeys,
  passkeyLogin,
  passkeyLoginOptions,
  passkeyRegistrationOptions,
  registerPasskey,
} from '@plenum/core';
import {
  passkeyCreationOptionsSchema,
  passkeyIdInput,
  passkeyLoginInput,
  passkeyLoginOptionsInput,
  passkeyRegisterInput,
  passkeyRegisterOptionsInput,
  passkeyRequestOptionsSchema,
  passkeySchema,
  sessionSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { clientOf } from '../client';
import { authedProcedure, publicProcedure } from '../trpc';
import { setSessionCookieFor } from './sign-in';

const tags = ['auth'];

/**
 * Passkeys (WebAuthn): adding, listing and removing them, and signing in with one; merged into the `auth`
 * router. See docs/accounts.md, "Passkeys". Adding one stays open to an admin who must first set up a
 * second factor (`mfaEnrolment`): a passkey is one.
 */
export const passkeyProcedures = {
  passkeyRegisterOptions: authedProcedure
    .meta({
      mfaEnrolment: true,
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/passkeys/register/options',
        tags,
        summary:
          'Options to create a passkey (pass them to startRegistration); needs a signed-in session. Optional `{ name }` label.',
      },
      errors: { 403: ['SESSION_REQUIRED'] },
    })
    .input(passkeyRegisterOptionsInput)
    .output(passkeyCreationOptionsSchema)
    .mutation(({ ctx, input }) =>
      passkeyRegistrationOptions(ctx.svc, { principal: ctx.principal, name: input?.name }),
    ),

  passkeyRegister: authedProcedure
    .meta({
      mfaEnrolment: true,
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/passkeys/register',
        tags,
        summary:
          'Add a passkey with the authenticator’s answer to the options (your first second factor also signs out your other sessions)',
      },
      successStatus: 201,
      errors: {
        400: ['VALIDATION_FAILED', 'PASSKEY_VERIFICATION_FAILED'],
        403: ['SESSION_REQUIRED'],
        409: ['PASSKEY_ALREADY_REGISTERED'],
      },
    })
    .input(passkeyRegisterInput)
    .output(passkeySchema)
    .mutation(({ ctx, input }) =>
      registerPasskey(ctx.svc, {
        principal: ctx.principal,
        response: input.response,
        name: input.name,
        client: clientOf(ctx),
      }),
    ),

  passkeys: authedProcedure
    .meta({
      mfaEnrolment: true,
      openapi: { method: 'GET', path: '/auth/passkeys', tags, summary: 'Your passkeys' },
    })
    .input(z.void())
    .output(z.object({ items: z.array(passkeySchema) }))
    .query(({ ctx }) => listPasskeys(ctx.svc, { principal: ctx.principal })),

  deletePasskey: authedProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'DELETE',
        path: '/auth/passkeys/{id}',
        tags,
        summary: 'Remove one of your passkeys (not your last way to sign in)',
      },
      successStatus: 204,
      errors: { 403: ['SESSION_REQUIRED'], 409: ['LAST_SIGN_IN_METHOD'] },
    })
    .input(passkeyIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      deletePasskey(ctx.svc, { principal: ctx.principal, id: input.id, client: clientOf(ctx) }),
    ),

  passkeyLoginOptions: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/passkeys/login/options',
        tags,
        protect: false,
        summary:
          'Options to sign in with a passkey (pass them to startAuthentication): usernameless, or with `{ mfaToken }` the second step of a sign-in',
      },
      errors: { 401: ['MFA_TOKEN_INVALID', 'PASSKEY_INVALID'] },
    })
    .input(passkeyLoginOptionsInput)
    .output(passkeyRequestOptionsSchema)
    .mutation(({ ctx, input }) => passkeyLoginOptions(ctx.svc, { mfaToken: input?.mfaToken })),

  passkeyLogin: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/passkeys/login',
        tags,
        protect: false,
        summary: 'Sign in with a passkey: the session, as POST /auth/login answers it (no second step)',
      },
      errors: {
        400: ['VALIDATION_FAILED'],
        401: ['PASSKEY_INVALID', 'PASSKEY_COUNTER_INVALID'],
        403: ['ACCOUNT_SUSPENDED'],
      },
    })
    .input(passkeyLoginInput)
    .output(sessionSchema)
    .mutation(async ({ ctx, input }) => {
      const session = await passkeyLogin(ctx.svc, { response: input.response, client: clientOf(ctx) });
      setSessionCookieFor(ctx, session);
      return session;
    }),
};
