import { AppError } from '@plenum/core';
import { isLockConflict } from '@plenum/db';
import { nulCharacterIssues } from '@plenum/validators';
import { initTRPC, TRPCError } from '@trpc/server';
import type { Context } from './context';
import { errorDetails, toTRPCError } from './errors';
import { type Access, accessRefusal, type Meta, operationScope, scopeRefusal } from './policy';

export type { Meta };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const { reason, detail, issues, fields } = errorDetails(error);
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      const message = internal ? 'Internal server error' : shape.message;
      // never a stack trace in a response
      const { stack: _stack, ...data } = shape.data as Record<string, unknown>;
      return {
        ...shape,
        message,
        // the one place both transports read them: tRPC clients and the REST error body (apps/server)
        data: { ...data, reason, ...(detail ? { detail } : {}), issues, ...fields },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/**
 * Every input, before its schema: no NUL character in any string or key (PostgreSQL cannot store it),
 * one 400 with a field issue per hit instead of a database error (docs/api.md, "Validation").
 */
function checkText(input: unknown) {
  const issues = nulCharacterIssues(input);
  if (issues.length) {
    const message = `Invalid input: ${issues.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ')}`;
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message,
      cause: new AppError('BAD_REQUEST', message, { reason: 'VALIDATION_FAILED', issues }),
    });
  }
}

/**
 * Every procedure: the text check above, then domain errors become their tRPC code; unexpected ones are
 * logged, never shown. One middleware, not two: each level of tRPC's middleware chain copies its options
 * object (twice) with a slow spread helper, ~7 % of the server's CPU under session-vote load for the
 * levels a vote goes through (docs/governance.md, "Decisions: the vote path").
 */
const everyCall = t.middleware(async ({ next, ctx, path, type, meta, getRawInput }) => {
  let error: TRPCError;
  try {
    // an access token's scopes before anything else (docs/accounts.md, "Token scopes"); a procedure nobody
    // classified (the classification test forbids it) counts as an account write
    if (ctx.principal?.kind === 'pat') {
      const scope = operationScope({ path, type, meta: meta ?? {} }) ?? 'account';
      const refusal = scopeRefusal(ctx.principal, scope);
      if (refusal) throw refusal;
    }
    checkText(await getRawInput());
    const result = await next();
    if (result.ok) return result;
    error = result.error;
  } catch (err) {
    // a refusal of the text check, or a raw input that could not be read: what tRPC makes of a throw
    error = err instanceof TRPCError ? err : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err });
  }
  const cause = error.cause ?? error;
  const retryAfter = cause instanceof AppError ? cause.options.retryAfterSeconds : undefined;
  if (retryAfter) ctx.setHeader('Retry-After', String(retryAfter));
  const mapped = toTRPCError(cause);
  if (mapped && mapped !== error) {
    // answered 503 and harmless to send again, but a lock-order mistake worth knowing about
    if (isLockConflict(cause))
      ctx.svc.log.warn({ err: cause, path, requestId: ctx.requestId }, 'lock conflict answered 503');
    throw mapped;
  }
  if (error.code === 'INTERNAL_SERVER_ERROR') {
    ctx.svc.log.error({ err: error.cause ?? error, path, requestId: ctx.requestId }, 'procedure failed');
  }
  // tRPC turns a thrown error into the same failed result this level would have returned
  throw error;
});

export const publicProcedure = t.procedure.use(everyCall);

/** the builder's access rule, as a middleware (the same rule plain routes apply: policy.ts) */
const requireAccess = (access: Access) =>
  t.middleware(({ ctx, next, meta }) => {
    const refusal = accessRefusal(ctx.svc, ctx.principal, access, meta);
    if (refusal) throw toTRPCError(refusal) ?? refusal;
    return next();
  });

const signedIn = t.middleware(({ ctx, next, meta }) => {
  const refusal = accessRefusal(ctx.svc, ctx.principal, 'member', meta);
  if (refusal) throw toTRPCError(refusal) ?? refusal;
  if (!ctx.principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});

export const authedProcedure = publicProcedure.use(signedIn);

/** Governance and storage writes: the account must be active while email verification is required. */
export const activeProcedure = authedProcedure.use(requireAccess('active'));

/** Admin actions, reads included, need a token's `account` scope (docs/accounts.md, "Token scopes"). */
export const adminProcedure = authedProcedure.use(requireAccess('admin')).meta({ scope: 'account' });
