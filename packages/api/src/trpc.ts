import { AppError } from '@plenum/core';
import { nulCharacterIssues } from '@plenum/validators';
import { initTRPC, TRPCError } from '@trpc/server';
import type { Context } from './context';
import { errorDetails, toTRPCError } from './errors';
import { type Access, accessRefusal, type Meta } from './policy';

export type { Meta };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const { reason, detail, issues } = errorDetails(error);
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      const message = internal ? 'Internal server error' : shape.message;
      // never a stack trace in a response
      const { stack: _stack, ...data } = shape.data as Record<string, unknown>;
      return {
        ...shape,
        message,
        // the one place both transports read them: tRPC clients and the REST error body (apps/server)
        data: { ...data, reason, ...(detail ? { detail } : {}), issues },
      };
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

/** the builder's access rule, as a middleware (the same rule plain routes apply: policy.ts) */
const requireAccess = (access: Access) =>
  t.middleware(({ ctx, next }) => {
    const refusal = accessRefusal(ctx.svc, ctx.principal, access);
    if (refusal) throw toTRPCError(refusal) ?? refusal;
    return next();
  });

const signedIn = t.middleware(({ ctx, next }) => {
  const refusal = accessRefusal(ctx.svc, ctx.principal, 'member');
  if (refusal) throw toTRPCError(refusal) ?? refusal;
  if (!ctx.principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});

export const authedProcedure = publicProcedure.use(signedIn);

/** Governance and storage writes: the account must be active while email verification is required. */
export const activeProcedure = authedProcedure.use(requireAccess('active'));

export const adminProcedure = authedProcedure.use(requireAccess('admin'));
