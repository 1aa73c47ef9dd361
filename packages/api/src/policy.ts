import { AppError, type Principal, type Reason, type Services } from '@plenum/core';
import type { TokenScope } from '@plenum/validators';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';

/**
 * Who may call an operation (docs/api.md, "Authentication"): anyone, a signed-in member, a member whose
 * account is active (email verified, while verification is required), or an admin. Every tRPC procedure
 * gets it from its builder (`publicProcedure`, `authedProcedure`, `activeProcedure`, `adminProcedure`),
 * every plain route declares it; both are checked by `accessRefusal`, so the rules exist once.
 */
export type Access = 'public' | 'member' | 'active' | 'admin';

/** which rate-limit budget an operation spends besides the general one (docs/api.md, "Rate limits") */
export type RateBudget = 'auth';

/** the refusal for a caller who may not use an operation of this access, or null when they may */
export function accessRefusal(
  svc: Services,
  principal: Principal | null,
  access: Access,
  meta?: Pick<Meta, 'mfaEnrolment'>,
): AppError | null {
  if (access === 'public') return null;
  if (!principal) return new AppError('UNAUTHORIZED', 'Sign in first', { reason: 'NOT_SIGNED_IN' });
  // MFA_REQUIRED_FOR_ADMINS: an admin without a second factor may only set one up (docs/accounts.md)
  if (principal.mfaEnrolmentRequired && !meta?.mfaEnrolment)
    return new AppError('FORBIDDEN', 'Set up two-factor sign-in first: admins must have a second factor', {
      reason: 'MFA_ENROLMENT_REQUIRED',
    });
  if (access === 'active' && svc.config.emailVerificationRequired && principal.status !== 'active')
    return new AppError('FORBIDDEN', 'Verify your email address first', { reason: 'EMAIL_NOT_VERIFIED' });
  if (access === 'admin' && principal.role !== 'admin')
    return new AppError('FORBIDDEN', 'Admins only', { reason: 'ADMIN_ONLY' });
  return null;
}

/**
 * The scope an access token needs for an operation (docs/accounts.md, "Token scopes"), or null when it
 * may: a session has every scope, and only a token's own scopes are checked.
 */
export function scopeRefusal(principal: Principal | null, scope: TokenScope): AppError | null {
  if (principal?.kind !== 'pat' || principal.scopes.includes(scope)) return null;
  return new AppError('FORBIDDEN', `This access token lacks the "${scope}" scope`, {
    reason: 'INSUFFICIENT_SCOPE',
    detail: scope,
  });
}

/**
 * What a write needs, by the top-level router it is in: a procedure's default scope unless its meta names
 * one (reads, subscriptions included, need `read`). A top-level router with writes missing here fails the
 * classification test (apps/server/test/access-token-scopes.test.ts), and its writes refuse every token.
 */
const WRITE_SCOPES = {
  governance: 'governance',
  storage: 'storage',
  auth: 'account',
  tokens: 'account',
  users: 'account',
  adminUsers: 'account',
  registration: 'account',
  webhooks: 'account',
} as const satisfies Record<string, TokenScope>;

/** the scope a procedure needs (docs/accounts.md, "Token scopes"); undefined: not classified (a bug) */
export function operationScope(op: Pick<Operation, 'path' | 'type' | 'meta'>): TokenScope | undefined {
  if (op.meta.scope) return op.meta.scope;
  if (op.type !== 'mutation') return 'read';
  const top = op.path.slice(0, op.path.indexOf('.'));
  return Object.hasOwn(WRITE_SCOPES, top) ? WRITE_SCOPES[top as keyof typeof WRITE_SCOPES] : undefined;
}

/** A procedure's policy besides its access (which its builder sets): docs/api.md. */
export interface Meta extends OpenApiMeta {
  /**
   * the scope an access token needs, where it is not the default (`read` for a query or subscription, the
   * top-level router's for a mutation: `operationScope`); admin procedures need `account` (their builder)
   */
  scope?: TokenScope;
  /** HTTP status of a success on the REST path (default 200) */
  successStatus?: 200 | 201 | 202 | 204;
  /** the stricter budget of the sign-in and registration paths, where guessing is the threat */
  rateLimit?: RateBudget;
  /**
   * a public operation whose answer depends on the caller when one is signed in (their hidden vote, a
   * private profile): the OpenAPI document lists its security as optional (docs/api.md, "The OpenAPI
   * document")
   */
  optionalAuth?: true;
  /**
   * the `reason` values the operation answers, by status, besides those of every path: the OpenAPI
   * document names them (docs/api.md, "The OpenAPI document")
   */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 502 | 503, readonly Reason[]>>;
  /**
   * open to an admin who must set up a second factor first (MFA_REQUIRED_FOR_ADMINS): the set-up paths,
   * `auth.me` and sign-out (docs/accounts.md, "Two-factor sign-in")
   */
  mfaEnrolment?: true;
  /**
   * a DELETE whose input is a JSON body (a code proving the change), as a POST's; its fields are also
   * taken from the query string (docs/api.md, "Validation")
   */
  deleteBody?: true;
}

export interface Operation {
  /** the procedure path, e.g. `auth.login` */
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  meta: Meta;
  /** its input schema (the first `.input()`; none: undefined), for REST to read the query's types */
  input: unknown;
}

/**
 * Every procedure of a router with its meta: the one place that reads tRPC's router definition, for the
 * REST routes, the OpenAPI post-processing and the rate-limit budgets. `_def` is internal to tRPC
 * (docs/internals.md, "tRPC's router definition").
 */
export function listOperations(router: AnyRouter): Operation[] {
  const procedures: Record<string, AnyProcedure> = router._def.procedures;
  return Object.entries(procedures).map(([path, proc]) => ({
    path,
    type: proc._def.type,
    meta: (proc._def.meta ?? {}) as Meta,
    input: (proc._def as { inputs: unknown[] }).inputs[0],
  }));
}
