import { AppError } from '@plenum/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * How request bodies are read (docs/api.md, "Validation"). JSON bodies (any JSON media type and
 * charset) must be one object; an empty body is no input. Other bodies are read as bytes for the REST
 * paths (so a procedure can answer 415 naming the type), or left unread for the plain routes that
 * stream them (multipart uploads).
 */

/** a body that is not JSON, read to answer about it */
export class OtherBody {
  constructor(
    readonly bytes: Buffer,
    readonly type: string,
  ) {}
}

export const malformedJson = (message = 'The request body is not valid JSON') =>
  new AppError('BAD_REQUEST', message, { reason: 'MALFORMED_JSON' });

export function parseJsonObject(bytes: Buffer): object | undefined {
  const text = bytes.toString('utf8');
  if (!text.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformedJson();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw malformedJson('The request body must be a JSON object');
  return parsed;
}

/** the JSON object parser and, for any other type, `other` */
export function useBodyParsers(app: FastifyInstance, other: 'read' | 'stream') {
  app.removeAllContentTypeParsers();
  const json = (
    _req: FastifyRequest,
    body: Buffer | string,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    try {
      done(null, parseJsonObject(typeof body === 'string' ? Buffer.from(body) : body));
    } catch (err) {
      done(err as Error, undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, json);
  app.addContentTypeParser(/^application\/[\w.-]+\+json$/, { parseAs: 'buffer' }, json);
  if (other === 'read')
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      done(null, bytes.length ? new OtherBody(bytes, mediaType(req)) : undefined);
    });
  else app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}

export const mediaType = (req: FastifyRequest) =>
  (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * For a request that takes no body (a DELETE, a POST whose only input is its path): nothing, whitespace
 * or `{}` is fine; a JSON object with fields is a 400 naming each one as unknown (unknown fields are
 * refused, never silently dropped); anything else is a 400 for the body.
 */
export async function refuseBody(request: FastifyRequest): Promise<void> {
  let body = request.body;
  if (body === undefined && !request.raw.readableEnded && hasBody(request)) body = await readRaw(request);
  if (body === undefined) return;
  if (body instanceof OtherBody) {
    const text = body.bytes.toString('utf8').trim();
    if (!text) return;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw malformedJson('This path takes no body (and this one is not JSON)');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw malformedJson('This path takes no body');
  }
  const keys = Object.keys(body as object);
  if (!keys.length) return;
  throw new AppError(
    'BAD_REQUEST',
    `Unknown field in the body: ${keys.join(', ')} (this path takes no body)`,
    {
      reason: 'VALIDATION_FAILED',
      issues: keys.map((key) => ({ path: key, message: 'unknown field', code: 'unrecognized_keys' })),
    },
  );
}

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

const NO_BODY_LIMIT = 64 * 1024;

/**
 * Reads and drops the unread body of a plain route that ignores it (a one-click unsubscribe form), up to
 * `limit` bytes (413 beyond).
 */
export async function discardBody(request: FastifyRequest, limit: number): Promise<void> {
  if (request.body === undefined && !request.raw.readableEnded && hasBody(request))
    await readRaw(request, limit, `This path reads at most ${limit} bytes`);
}

/** the unread body of a route that streams bodies, up to `limit` bytes */
function readRaw(
  request: FastifyRequest,
  limit = NO_BODY_LIMIT,
  tooLarge = 'This path takes no body',
): Promise<OtherBody> {
  const req = request.raw;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new AppError('PAYLOAD_TOO_LARGE', tooLarge));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(new OtherBody(Buffer.concat(chunks), mediaType(request))));
    req.on('error', () => reject(new AppError('BAD_REQUEST', 'Could not read the request body')));
  });
}
