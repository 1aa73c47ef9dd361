import { AppError, type Detail, type ErrorCode, type FieldIssue, type Reason } from '@plenum/core';
import { isConnectionError, isLockConflict } from '@plenum/db';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';

/**
 * The one error path of the HTTP server (docs/api.md, "Errors"): whatever fails (a refusal of the request
 * pipeline, a domain error of a plain route, a body Fastify could not read, an unexpected exception) is
 * turned into an `ErrorReply` here, then written in the body format of the caller: the one error body,
 * tRPC's envelope for a tRPC HTTP call, or the Pinning Service API's own body. A REST procedure's error
 * comes here too (http/rest.ts); tRPC procedures shape theirs in packages/api (errors.ts, trpc.ts).
 */

export const STATUS_OF: Record<ErrorCode | 'METHOD_NOT_SUPPORTED' | 'PARSE_ERROR', number> = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

export interface ErrorBody {
  code: string;
  reason?: Reason;
  /** a finer code under `reason` (docs/api.md, "Errors") */
  detail?: Detail;
  message: string;
  issues?: FieldIssue[];
  /** a refusal's own fields (QUOTA_EXCEEDED: usedBytes, limitBytes; docs/api.md, "Errors") */
  [field: string]: unknown;
}

export interface ErrorReply {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** an error nobody expected: logged with its details, answered without them */
  unexpected: boolean;
  /** a deadlock or serialization failure, answered 503 and logged as a warning */
  lockConflict?: boolean;
}

export const databaseUnavailable = () =>
  new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable', { reason: 'DATABASE_UNAVAILABLE' });

export const databaseBusy = () =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The database stopped this request in a conflict with a concurrent one; nothing was changed, try again',
    { reason: 'DATABASE_BUSY' },
  );

/** Errors Fastify raises before a handler runs (body reading), by its error code. */
const FASTIFY_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('BAD_REQUEST', 'Could not read the request body (its length is wrong)'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type', { reason: 'UNSUPPORTED_MEDIA_TYPE' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new AppError('BAD_REQUEST', 'The request body is empty'),
};

/** Any error → status, body and headers. */
export function errorReply(err: unknown): ErrorReply {
  let e: unknown = err;
  // the UnixFS importer and busboy may wrap the error that one of our streams threw
  for (let i = 0; i < 5 && e && !(e instanceof AppError); i++) e = (e as { cause?: unknown }).cause;
  if (e instanceof AppError) return fromAppError(e);
  const fastify = (err as { code?: string }).code;
  if (fastify && FASTIFY_ERRORS[fastify]) return fromAppError(FASTIFY_ERRORS[fastify]());
  if (isConnectionError(err)) return fromAppError(databaseUnavailable());
  if (isLockConflict(err)) return { ...fromAppError(databaseBusy()), lockConflict: true };
  // a client that went away while its body was read: nobody reads this answer
  if ((err as { code?: string }).code === 'ECONNRESET' || (err as Error).message === 'aborted')
    return fromAppError(new AppError('BAD_REQUEST', 'Could not read the request body'));
  return {
    status: 500,
    body: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' },
    headers: {},
    unexpected: true,
  };
}

function fromAppError(e: AppError): ErrorReply {
  const body: ErrorBody = { code: e.code, message: e.message };
  if (e.reason) body.reason = e.reason;
  if (e.detail) body.detail = e.detail;
  if (e.issues?.length) body.issues = e.issues;
  for (const [k, v] of Object.entries(e.options.fields ?? {})) if (!(k in body)) body[k] = v;
  const headers: Record<string, string> = {};
  // a 503 tells the client when to try again (docs/operations.md, "Database outages")
  if (e.code === 'SERVICE_UNAVAILABLE') headers['Retry-After'] = '1';
  if (e.options.retryAfterSeconds) headers['Retry-After'] = String(e.options.retryAfterSeconds);
  return { status: STATUS_OF[e.code], body, headers, unexpected: false };
}

/** the procedure names of a tRPC HTTP path (`/trpc/a.b,c.d`), empty for anything else */
export function trpcProcedures(pathname: string): string[] {
  if (!pathname.startsWith('/trpc/')) return [];
  try {
    return decodeURIComponent(pathname.slice('/trpc/'.length)).split(',');
  } catch {
    return [];
  }
}

/**
 * An error a tRPC HTTP client can read, for answers given before tRPC runs (rate limit, database down,
 * CSRF): the JSON-RPC envelope, one per call of a batch, with the reason in `data` (docs/api.md).
 */
export function trpcErrorBody(reply: ErrorReply, calls: string[], batch: boolean) {
  const { code, message, reason } = reply.body;
  const one = (path: string) => ({
    error: {
      message,
      code: TRPC_ERROR_CODES_BY_KEY[code as keyof typeof TRPC_ERROR_CODES_BY_KEY] ?? -32603,
      data: { code, httpStatus: reply.status, path, ...(reason ? { reason } : {}) },
    },
  });
  return batch ? calls.map(one) : one(calls[0] ?? '');
}

const PSA_MESSAGES: Record<string, string> = {
  NOT_SIGNED_IN: 'A valid access token is required (Authorization: Bearer …)',
};

/** The Pinning Service API's own error body, `{ error: { reason, details } }` (docs/storage.md). */
export function psaErrorBody(reply: ErrorReply) {
  const { reason, code, message, issues } = reply.body;
  if (reply.status === 401) reply.headers['WWW-Authenticate'] = 'Bearer';
  if (reason === 'NOT_SIGNED_IN') return { error: { reason: 'UNAUTHORIZED', details: PSA_MESSAGES[reason] } };
  const details = issues?.length
    ? `${message}: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`
    : message;
  return { error: { reason: reason ?? code, details } };
}
