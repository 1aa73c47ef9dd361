import {
  AppError,
  confirmIdentityLink,
  listIdentities,
  providerNameOf,
  redeemHandoff,
  startOidc,
  unlinkIdentity,
} from '@plenum/core';
import {
  identityIdInput,
  identityLinkConfirmedSchema,
  identityLinkConfirmInput,
  linkedIdentitySchema,
  oidcHandoffInput,
  oidcLinkStartInput,
  oidcProviderSchema,
  sessionSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { clientOf } from '../client';
import { authedProcedure, publicProcedure } from '../trpc';

const tags = ['auth'];

/**
 * OpenID Connect sign-in's JSON side; merged into the `auth` router (docs/accounts.md, "Signing in with
 * OpenID Connect"). The browser's redirects are plain routes of the server (apps/server/src/routes/auth).
 */
export const oidcProcedures = {
  oidcProviders: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/oidc/providers',
        tags,
        protect: false,
        summary: 'The OpenID providers one may sign in with',
      },
    })
    .input(z.void())
    .output(z.array(oidcProviderSchema))
    .query(({ ctx }) => ctx.svc.oidc.providers.map((p) => ({ id: p.id, name: p.name }))),

  identities: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/identities',
        tags,
        summary: 'Your identities at OpenID providers',
      },
      // a list of sign-in methods is the account's business, like the list of access tokens
      scope: 'account',
    })
    .input(z.void())
    .output(z.array(linkedIdentitySchema))
    .query(({ ctx }) => listIdentities(ctx.svc.db, ctx.principal.userId, providerNameOf(ctx.svc))),

  unlinkIdentity: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/auth/identities/{id}',
        tags,
        summary: 'Unlink an identity at an OpenID provider (not your last way to sign in)',
      },
      scope: 'account',
      successStatus: 204,
      errors: { 409: ['LAST_SIGN_IN_METHOD'] },
    })
    .input(identityIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      unlinkIdentity(ctx.svc, { userId: ctx.principal.userId, id: input.id, client: clientOf(ctx) }),
    ),

  /**
   * For a client that holds its session as a Bearer token (the web app): starts a link flow and sets the
   * browser-binding cookie on this answer (the client calls it with credentials), then sends the
   * browser to `url`. A cookie-borne session can use GET /auth/oidc/{provider}/start?intent=link instead.
   */
  oidcLinkStart: authedProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/oidc/{provider}/link',
        tags,
        summary:
          'Start linking an OpenID provider to your account: the URL to send the browser to (needs a session)',
      },
      scope: 'account',
      errors: { 403: ['SESSION_REQUIRED'] },
    })
    .input(oidcLinkStartInput)
    .output(z.object({ url: z.string() }))
    .mutation(async ({ ctx, input }) => {
      if (ctx.principal.kind !== 'session')
        throw new AppError('FORBIDDEN', 'Linking needs a signed-in session', { reason: 'SESSION_REQUIRED' });
      const started = await startOidc(ctx.svc, {
        provider: input.provider,
        returnTo: input.returnTo ?? null,
        linkUserId: ctx.principal.userId,
      });
      ctx.setBrowserBinding?.(started.browserToken, Math.floor(started.expiresInMs / 1000));
      return { url: started.url };
    }),

  oidcHandoff: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/oidc/handoff',
        tags,
        protect: false,
        summary:
          'The session of a finished OpenID sign-in, for a client that keeps it as a Bearer token: redeem the `session` of the fragment (2 minutes)',
      },
      errors: { 400: ['OIDC_HANDOFF_INVALID'] },
    })
    .input(oidcHandoffInput)
    .output(sessionSchema)
    .mutation(({ ctx, input }) => redeemHandoff(ctx.svc, input)),

  confirmIdentityLink: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/oidc/link/confirm',
        tags,
        protect: false,
        summary: 'Confirm linking an OpenID identity to your account, with the token from the mail',
      },
      errors: { 400: ['OIDC_LINK_INVALID'], 409: ['OIDC_IDENTITY_TAKEN'] },
    })
    .input(identityLinkConfirmInput)
    .output(identityLinkConfirmedSchema)
    .mutation(({ ctx, input }) => confirmIdentityLink(ctx.svc, input)),
};
