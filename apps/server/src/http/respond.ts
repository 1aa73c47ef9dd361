import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode, FieldIssue } from '@plenum/core';

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
  reason?: string;
  message: string;
  issues?: FieldIssue[];
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(status === 204 ? undefined : JSON.stringify(body));
}

/** The one error body (docs/api.md, "Errors"), the only error shape the REST side ever sends. */
export function sendError(
  res: ServerResponse,
  code: keyof typeof STATUS_OF,
  message: string,
  extra: {
    reason?: string | undefined;
    issues?: FieldIssue[] | undefined;
    headers?: Record<string, string>;
  } = {},
) {
  const body: ErrorBody = { code: code === 'PARSE_ERROR' ? 'BAD_REQUEST' : code, message };
  if (extra.reason) body.reason = extra.reason;
  if (extra.issues?.length) body.issues = extra.issues;
  const headers = code === 'SERVICE_UNAVAILABLE' ? { 'Retry-After': '1', ...extra.headers } : extra.headers;
  sendJson(res, STATUS_OF[code], body, headers);
}

/** Reads a request body up to `limit` bytes; rejects with 'TOO_LARGE' beyond it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new Error('TOO_LARGE'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new Error('TOO_LARGE'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * For a request that takes no body (a DELETE, a POST whose only input is its path): nothing, whitespace
 * or `{}` is fine; a JSON object with fields is a 400 naming each one as unknown (unknown fields are
 * refused, never silently dropped: docs/api.md, "Validation"); anything else is a 400 for the body. Returns
 * whether the request may go on; otherwise the answer has been sent.
 */
export async function refuseUnexpectedBody(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!req.headers['transfer-encoding'] && !(declared > 0)) return true;
  let raw: Buffer;
  try {
    raw = await readBody(req, 64 * 1024);
  } catch (err) {
    if ((err as Error).message === 'TOO_LARGE')
      sendError(res, 'PAYLOAD_TOO_LARGE', 'This path takes no body');
    else sendError(res, 'BAD_REQUEST', 'Could not read the request body');
    return false;
  }
  const text = raw.toString('utf8').trim();
  if (!text) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    sendError(res, 'BAD_REQUEST', 'This path takes no body (and this one is not JSON)', {
      reason: 'MALFORMED_JSON',
    });
    return false;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    sendError(res, 'BAD_REQUEST', 'This path takes no body', { reason: 'MALFORMED_JSON' });
    return false;
  }
  const keys = Object.keys(parsed);
  if (!keys.length) return true;
  sendError(res, 'BAD_REQUEST', `Unknown field in the body: ${keys.join(', ')} (this path takes no body)`, {
    reason: 'VALIDATION_FAILED',
    issues: keys.map((key) => ({ path: key, message: 'unknown field', code: 'unrecognized_keys' })),
  });
  return false;
}

const TRPC_CODE = { TOO_MANY_REQUESTS: -32029, SERVICE_UNAVAILABLE: -32603, FORBIDDEN: -32003 } as const;

/**
 * An error a tRPC HTTP client can read, for answers given before tRPC runs (rate limit, database
 * down): the JSON-RPC envelope, one per call of a batch, with the error's reason in `data` (docs/api.md,
 * "Decisions").
 */
export function sendTrpcError(
  res: ServerResponse,
  calls: string[],
  batch: boolean,
  code: keyof typeof TRPC_CODE,
  message: string,
  extra: { reason: string; headers?: Record<string, string> },
) {
  const status = STATUS_OF[code];
  const one = (path: string) => ({
    error: {
      message,
      code: TRPC_CODE[code],
      data: { code, httpStatus: status, path, reason: extra.reason },
    },
  });
  const body = batch ? calls.map(one) : one(calls[0] ?? '');
  sendJson(res, status, body, extra.headers);
}
