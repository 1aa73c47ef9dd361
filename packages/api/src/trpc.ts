import { AppError } from '@plenum/core';
import { nulCharacterIssues } from '@plenum/validators';
import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { errorDetails, toTRPCError } from './errors';

export interface Meta extends OpenApiMeta {
  /** HTTP status of a success on the REST path (default 200) */
  successStatus?: 200 | 201 | 202 | 204;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const { reason, issues } = errorDetails(error);
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      const message = internal ? 'Internal server error' : shape.message;
      // never a stack trace in a response
      const { stack: _stack, ...data } = shape.data as Record<string, unknown>;
      return { ...shape, message, data: { ...data, reason, issues }, reason, fieldIssues: issues };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Every procedure: domain errors become their tRPC code; unexpected ones are logged, never shown. */
const errorMapping = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause ?? result.error;
    const retryAfter = cause instanceof AppError ? cause.options.retryAfterSeconds : undefined;
    if (retryAfter) ctx.setHeader('Retry-After', String(retryAfter));
    const mapped = toTRPCError(cause);
    if (mapped && mapped !== result.error) throw mapped;
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.svc.log.error(
        { err: result.error.cause ?? result.error, path, requestId: ctx.requestId },
        'procedure failed',
      );
    }
  }
  return result;
});

/**
 * Every input, before its schema: no NUL character in any string or key (PostgreSQL cannot store it),
 * one 400 with a field issue per hit instead of a database error (docs/api.md, "Validation").
 */
const textCheck = t.middleware(async ({ getRawInput, next }) => {
  const issues = nulCharacterIssues(await getRawInput());
  if (issues.length) {
    const message = `Invalid input: ${issues.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ')}`;
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message,
      cause: new AppError('BAD_REQUEST', message, { reason: 'VALIDATION_FAILED', issues }),
    });
  }
  return next();
});

export const publicProcedure = t.procedure.use(errorMapping).use(textCheck);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.principal)
    throw new TRPCError({
      code: 'UNAUTHORIZED',
      message: 'Sign in first',
      cause: new AppError('UNAUTHORIZED', 'Sign in first', { reason: 'NOT_SIGNED_IN' }),
    });
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});

/** Governance and storage writes: the account must be active while email verification is required. */
export const activeProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.svc.config.emailVerificationRequired && ctx.principal.status !== 'active') {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: 'Verify your email address first',
      cause: new AppError('FORBIDDEN', 'Verify your email address first', { reason: 'EMAIL_NOT_VERIFIED' }),
    });
  }
  return next();
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.principal.role !== 'admin') {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: 'Admins only',
      cause: new AppError('FORBIDDEN', 'Admins only', { reason: 'ADMIN_ONLY' }),
    });
  }
  return next();
});
