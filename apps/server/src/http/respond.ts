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

/** The SPEC's error body, the only error shape the REST side ever sends. */
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
  sendJson(res, STATUS_OF[code], body, extra.headers);
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
