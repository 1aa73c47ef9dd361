import {
  hasPassword,
  issueNonce,
  linkWallet,
  listWallets,
  login,
  pageWallets,
  resolveToken,
  serializeUser,
  setPrimaryWallet,
  siweLogin,
} from '@plenum/core';
import { users } from '@plenum/db';
import {
  loginInput,
  meSchema,
  nonceSchema,
  paged,
  pageQuery,
  signInSchema,
  siweInput,
  walletSchema,
} from '@plenum/validators';
import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { clientOf } from '../client';
import { authedProcedure, publicProcedure, router } from '../trpc';
import { activityProcedures } from './auth-activity';
import { emailProcedures } from './auth-email';
import { mfaProcedures } from './auth-mfa';
import { oidcProcedures } from './auth-oidc';
import { passkeyProcedures } from './auth-passkeys';
import { passwordProcedures } from './auth-password';
import { sessionProcedures } from './auth-sessions';
import { walletProcedures } from './auth-wallets';
import { setSessionCookieFor } from './sign-in';

const tags = ['auth'];

export const authRouter = router({
  ...passwordProcedures,
  ...sessionProcedures,
  ...mfaProcedures,
  ...passkeyProcedures,
  ...emailProcedures,
  ...walletProcedures,
  ...oidcProcedures,
  ...activityProcedures,

  nonce: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/nonce',
        tags,
        protect: false,
        summary: 'A single-use EIP-4361 nonce (10 min)',
      },
    })
    .input(z.void())
    .output(nonceSchema)
    .query(({ ctx }) => issueNonce(ctx.svc)),

  login: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/login',
        tags,
        protect: false,
        summary: 'Sign in with email and password',
        description:
          'Answers the session, or for an account with a second factor `{ mfaRequired: true, mfaToken, methods }` and no session: finish with POST /auth/login/mfa.',
      },
    })
    .input(loginInput)
    .output(signInSchema)
    .mutation(async ({ ctx, input }) => {
      const session = await login(ctx.svc, { ...input, client: clientOf(ctx) });
      setSessionCookieFor(ctx, session);
      return session;
    }),

  siwe: publicProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/siwe',
        tags,
        protect: false,
        summary: 'Sign in with Ethereum (EIP-4361)',
        description:
          'Answers the session, or for an account with a second factor `{ mfaRequired: true, mfaToken, methods }` and no session: finish with POST /auth/login/mfa.',
      },
    })
    .input(siweInput)
    .output(signInSchema)
    .mutation(async ({ ctx, input }) => {
      const session = await siweLogin(ctx.svc, { ...input, client: clientOf(ctx) });
      setSessionCookieFor(ctx, session);
      return session;
    }),

  logout: authedProcedure
    .meta({
      mfaEnrolment: true,
      openapi: { method: 'POST', path: '/auth/logout', tags, summary: 'End this session' },
      successStatus: 204,
    })
    .input(z.void())
    .output(z.void())
    .mutation(async ({ ctx }) => {
      if (ctx.principal.kind === 'session' && ctx.token) {
        const { deleteSession } = await import('@plenum/core');
        await deleteSession(ctx.svc, { token: ctx.token });
      }
      ctx.setSessionCookie('', { maxAgeSeconds: 0 });
    }),

  me: authedProcedure
    .meta({
      mfaEnrolment: true,
      openapi: { method: 'GET', path: '/auth/me', tags, summary: 'The signed-in user and their wallets' },
    })
    .input(z.void())
    .output(meSchema)
    .query(async ({ ctx }) => {
      const [user] = await ctx.svc.db.select().from(users).where(eq(users.id, ctx.principal.userId)).limit(1);
      if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
      return {
        user: serializeUser(user),
        wallets: await listWallets(ctx.svc, { userId: user.id }),
        hasPassword: hasPassword(user),
      };
    }),

  linkWallet: authedProcedure
    .meta({
      rateLimit: 'auth',
      openapi: {
        method: 'POST',
        path: '/auth/wallets',
        tags,
        summary: 'Link the wallet that signed this EIP-4361 message',
      },
      successStatus: 201,
    })
    .input(siweInput)
    .output(walletSchema)
    .mutation(({ ctx, input }) => linkWallet(ctx.svc, { userId: ctx.principal.userId, ...input })),

  setPrimaryWallet: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/wallets/{address}/primary',
        tags,
        summary: 'Make one of your wallets the primary one (the owner of your new pins)',
      },
    })
    .input(z.strictObject({ address: z.string().max(100) }))
    .output(z.object({ items: z.array(walletSchema) }))
    .mutation(({ ctx, input }) =>
      setPrimaryWallet(ctx.svc, { userId: ctx.principal.userId, address: input.address }),
    ),

  wallets: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/auth/wallets', tags, summary: 'The signed-in user’s wallets' },
    })
    .input(z.strictObject(pageQuery).optional())
    .output(paged(walletSchema))
    .query(({ ctx, input }) =>
      pageWallets(ctx.svc, {
        userId: ctx.principal.userId,
        page: input?.page ?? 1,
        limit: input?.limit ?? 50,
      }),
    ),
});

/** for the WebSocket handshake and other non-procedure callers */
export { resolveToken };
