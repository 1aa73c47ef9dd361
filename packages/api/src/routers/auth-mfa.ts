import {
  confirmTotp,
  disableTotp,
  finishSecondFactor,
  mfaStatus,
  regenerateRecoveryCodes,
  startTotpEnrolment,
} from '@plenum/core';
import {
  mfaCodeInput,
  mfaLoginInput,
  mfaStatusSchema,
  recoveryCodesSchema,
  sessionSchema,
  totpConfirmInput,
  totpEnrolmentSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { clientOf } from '../client';
import { authedProcedure, publicProcedure } from '../trpc';
import { setSessionCookieFor } from './sign-in';

const tags = ['auth'];

/**
 * Two-factor sign-in with TOTP and recovery codes; merged into the `auth` router. See docs/accounts.md,
 * "Two-factor sign-in". The set-up paths stay open to an admin who must first set up a factor
 * (`mfaEnrolment`).
 */
export const mfaProcedures = {
  loginMfa: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/login/mfa',
        tags,
        protect: false,
        summary:
          'Finish a sign-in with a second factor: the mfaToken and a code from the app, a recovery code or a passkey’s answer',
      },
      errors: {
        400: ['VALIDATION_FAILED'],
        401: ['MFA_TOKEN_INVALID', 'INVALID_MFA_CODE', 'PASSKEY_INVALID', 'PASSKEY_COUNTER_INVALID'],
        403: ['ACCOUNT_SUSPENDED'],
      },
    })
    .input(mfaLoginInput)
    .output(sessionSchema)
    .mutation(async ({ ctx, input }) => {
      const session = await finishSecondFactor(ctx.svc, { ...input, client: clientOf(ctx) });
      setSessionCookieFor(ctx, session);
      return session;
    }),

  mfaStatus: authedProcedure
    .meta({
      mfaEnrolment: true,
      openapi: {
        method: 'GET',
        path: '/auth/mfa',
        tags,
        summary: 'Your second factors and recovery codes left',
      },
    })
    .input(z.void())
    .output(mfaStatusSchema)
    .query(({ ctx }) => mfaStatus(ctx.svc, { userId: ctx.principal.userId })),

  totpStart: authedProcedure
    .meta({
      mfaEnrolment: true,
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/mfa/totp',
        tags,
        summary:
          'Start setting up an authenticator app: a new secret, confirmed by its first code (needs a signed-in session)',
      },
      errors: { 403: ['SESSION_REQUIRED'], 409: ['TOTP_ALREADY_ENABLED'] },
    })
    .input(z.void())
    .output(totpEnrolmentSchema)
    .mutation(({ ctx }) => startTotpEnrolment(ctx.svc, { principal: ctx.principal })),

  totpConfirm: authedProcedure
    .meta({
      mfaEnrolment: true,
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/mfa/totp/confirm',
        tags,
        summary:
          'Turn two-factor sign-in on with a code from the app; answers ten recovery codes, shown once (your other sessions end)',
      },
      errors: {
        400: ['INVALID_MFA_CODE'],
        403: ['SESSION_REQUIRED'],
        409: ['NO_TOTP_ENROLMENT', 'TOTP_ALREADY_ENABLED'],
      },
    })
    .input(totpConfirmInput)
    .output(recoveryCodesSchema)
    .mutation(({ ctx, input }) =>
      confirmTotp(ctx.svc, { principal: ctx.principal, code: input.code, client: clientOf(ctx) }),
    ),

  totpDisable: authedProcedure
    .meta({
      rateLimit: 'auth',
      deleteBody: true,
      openapi: {
        method: 'DELETE',
        path: '/auth/mfa/totp',
        tags,
        summary: 'Turn two-factor sign-in off with a current code or a recovery code (JSON body `{ code }`)',
      },
      successStatus: 204,
      errors: { 400: ['INVALID_MFA_CODE'], 403: ['SESSION_REQUIRED'], 409: ['TOTP_NOT_ENABLED'] },
    })
    .input(mfaCodeInput)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      disableTotp(ctx.svc, { principal: ctx.principal, code: input.code, client: clientOf(ctx) }),
    ),

  recoveryCodes: authedProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/mfa/recovery-codes',
        tags,
        summary:
          'Replace your recovery codes (a current code or a recovery code proves it); the old ones stop working',
      },
      errors: { 400: ['INVALID_MFA_CODE'], 403: ['SESSION_REQUIRED'], 409: ['TOTP_NOT_ENABLED'] },
    })
    .input(mfaCodeInput)
    .output(recoveryCodesSchema)
    .mutation(({ ctx, input }) =>
      regenerateRecoveryCodes(ctx.svc, { principal: ctx.principal, code: input.code, client: clientOf(ctx) }),
    ),
};
