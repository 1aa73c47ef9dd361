import { type Context, createCallerFactory, errorDetails, listOperations } from '@plenum/api';
import { AppError, type ErrorCode } from '@plenum/core';
import { type AnyRouter, TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OtherBody, refuseBody, useBodyParsers } from './body';
import { STATUS_OF } from './errors';
import { fastifyPath } from './routes';

type CreateContext = (request: FastifyRequest, reply: FastifyReply) => Context;

/**
 * The procedures as REST paths (docs/api.md, "Transports"): one Fastify route per procedure with an
 * OpenAPI method and path, so Fastify's router matches them (case-insensitively, one trailing slash
 * ignored). The input is the path parameters over the query (GET, DELETE, its strings coerced to the
 * numbers and booleans the schema asks for) or over the JSON body (never coerced); the procedure
 * validates it. A success answers with the procedure's status (meta.successStatus), an error goes to the
 * server's one error path (http/errors.ts).
 */
export function registerRest(
  app: FastifyInstance,
  options: { router: AnyRouter; createContext: CreateContext },
) {
  const callerOf = createCallerFactory(options.router as never);

  return app.register(async (scope) => {
    useBodyParsers(scope, 'read');
    for (const { path, meta, input: declared } of listOperations(options.router)) {
      if (!meta.openapi) continue;
      const { method, path: template } = meta.openapi;
      const schema = inputSchema(declared as ZodLike | undefined);
      const pathParams = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const literals = template.split('/').map((s) => (s.startsWith('{') ? null : s.toLowerCase()));
      const bodyOnDelete = method === 'DELETE' && meta.deleteBody === true;
      const useBody = (method !== 'GET' && method !== 'DELETE') || bodyOnDelete;
      const status = meta.successStatus ?? 200;

      scope.route({
        method,
        url: fastifyPath(template),
        // the procedure, for the rate-limit budgets, and the template, for metrics (http/pipeline.ts)
        config: { procedure: path, openapiPath: template, rateLimit: meta.rateLimit },
        handler: async (request, reply) => {
          // Fastify decodes percent-escapes before matching: a literal segment is spelled as is
          if (!spelledAsIs(request.url, literals))
            throw new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
          const params = request.params as Record<string, string>;
          let input: Record<string, unknown> | undefined;
          if (useBody) {
            const body = request.body;
            if (body instanceof OtherBody)
              throw new AppError(
                'UNSUPPORTED_MEDIA_TYPE',
                `Unsupported content-type "${body.type || 'missing'}"`,
              );
            if (body !== undefined) refusePathKeys(body as object, pathParams);
            // a DELETE with a body takes its fields from the query string too (some clients send no DELETE body)
            const query = bodyOnDelete ? queryInput(request.query as Record<string, unknown>) : {};
            if (schema.kind !== 'void') input = { ...query, ...(body as object | undefined), ...params };
          } else {
            if (method === 'DELETE') await refuseBody(request);
            if (schema.kind !== 'void') {
              input = { ...queryInput(request.query as Record<string, unknown>), ...params };
              if (schema.kind === 'object') coerceQuery(input, schema.shape);
            }
          }
          type Node = { [key: string]: Node } & ((input: unknown) => Promise<unknown>);
          const caller = callerOf(options.createContext(request, reply)) as unknown as Node;
          const call = path.split('.').reduce((node, key) => node[key]!, caller);
          let data: unknown;
          try {
            data = await call(input);
          } catch (err) {
            throw restError(err);
          }
          if (status === 204) return reply.code(204).send();
          return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(data));
        },
      });
    }
    // any other path, or a parameter longer than the router's limit (which Fastify alone would answer
    // 414 in a body of its own): 404 in the one error body, after the pipeline like any request
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: async (request) => {
        throw new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
      },
    });
  });
}

/** every literal segment of the template, spelled in the URL without escapes (any letter case) */
function spelledAsIs(url: string, literals: (string | null)[]): boolean {
  const q = url.indexOf('?');
  const parts = (q === -1 ? url : url.slice(0, q)).split('/');
  if (parts.length === literals.length + 1 && parts.at(-1) === '') parts.pop();
  return (
    parts.length === literals.length && literals.every((l, i) => l === null || parts[i]!.toLowerCase() === l)
  );
}

/** the path names the resource, never the body */
function refusePathKeys(body: object, pathParams: string[]) {
  const clash = pathParams.filter((p) => Object.hasOwn(body, p));
  if (clash.length)
    throw new AppError('BAD_REQUEST', `Unknown field in the body: ${clash.join(', ')} (set by the path)`, {
      reason: 'VALIDATION_FAILED',
      issues: clash.map((key) => ({
        path: key,
        message: 'not accepted in the body: the path names the resource',
        code: 'unrecognized_keys',
      })),
    });
}

/** the query as input: a key given once is a string, repeated an array; an empty value is no value */
function queryInput(query: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!value) continue;
    input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  return input;
}

interface ZodLike {
  _zod?: { def: { type: string; innerType?: ZodLike; element?: ZodLike; getter?: () => ZodLike } };
  shape?: Record<string, ZodLike>;
}

type InputSchema = { kind: 'void' } | { kind: 'object'; shape: Record<string, ZodLike> } | { kind: 'other' };

/** what the procedure's input schema takes (none: an empty object, as trpc-to-openapi took it) */
function inputSchema(declared: ZodLike | undefined): InputSchema {
  if (!declared) return { kind: 'object', shape: {} };
  let s: ZodLike | undefined = declared;
  // the input side of wrappers and transforms
  for (let i = 0; i < 10 && s?._zod; i++) {
    const def = s._zod.def as { type: string; innerType?: ZodLike; in?: ZodLike; out?: ZodLike };
    if (['optional', 'nullable', 'default', 'prefault'].includes(def.type)) s = def.innerType;
    else if (def.type === 'pipe') s = def.out?._zod?.def.type === 'transform' ? def.in : def.out;
    else break;
  }
  const type = s?._zod?.def.type;
  if (type === 'void' || type === 'undefined' || type === 'never') return { kind: 'void' };
  if (type === 'object') return { kind: 'object', shape: s!.shape ?? {} };
  return { kind: 'other' };
}

/** the scalar type a query field wants, through optional, nullable, default and array wrappers */
function scalarOf(field: ZodLike | undefined): { type: string; array: boolean } {
  let s = field;
  let array = false;
  for (let i = 0; i < 10 && s?._zod; i++) {
    const def = s._zod.def;
    if (def.type === 'array') {
      array = true;
      s = def.element;
    } else if (['optional', 'nullable', 'default', 'prefault'].includes(def.type)) s = def.innerType;
    else if (def.type === 'lazy' && def.getter) s = def.getter();
    else break;
  }
  return { type: s?._zod?.def.type ?? 'unknown', array };
}

const COERCE: Record<string, (v: unknown) => unknown> = {
  number: (v) => Number(v),
  boolean: (v) => Boolean(v),
  bigint: (v) => {
    try {
      return BigInt(v as string);
    } catch {
      return v;
    }
  },
  date: (v) => new Date(v as string),
};

/**
 * Query strings are text: each value becomes the number, boolean, bigint or date its field wants, as
 * `z.coerce` would do it (docs/api.md, "Validation"), on a copy of the input; the shared schema is left
 * as it is, so tRPC and JSON bodies keep their exact types. A single value for an array field becomes a
 * one-element array.
 */
function coerceQuery(input: Record<string, unknown>, shape: Record<string, ZodLike>) {
  for (const [key, field] of Object.entries(shape)) {
    if (input[key] === undefined) continue;
    const { type, array } = scalarOf(field);
    if (array && !Array.isArray(input[key])) input[key] = [input[key]];
    const coerce = COERCE[type];
    if (!coerce) continue;
    input[key] = array ? (input[key] as unknown[]).map(coerce) : coerce(input[key]);
  }
}

const isErrorCode = (code: string): code is ErrorCode =>
  code in STATUS_OF && code !== 'METHOD_NOT_SUPPORTED' && code !== 'PARSE_ERROR';

/** a procedure's error as the one error body's AppError (its reason, detail and field issues kept) */
function restError(err: unknown): unknown {
  if (!(err instanceof TRPCError)) return err;
  const { reason, detail, issues, fields } = errorDetails(err);
  const code =
    err.code === 'PARSE_ERROR' ? 'BAD_REQUEST' : isErrorCode(err.code) ? err.code : 'INTERNAL_SERVER_ERROR';
  let message = code === 'INTERNAL_SERVER_ERROR' ? 'Internal server error' : err.message;
  if (err.code === 'BAD_REQUEST' && (err.cause as Error | undefined)?.name === 'ZodError')
    message = issues?.length
      ? `Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`
      : 'Input validation failed';
  const cause = err.cause instanceof AppError ? err.cause : null;
  return new AppError(code, message, {
    ...(reason ? { reason } : {}),
    ...(detail ? { detail } : {}),
    ...(issues?.length ? { issues } : {}),
    ...(fields ? { fields } : {}),
    ...(cause?.options.retryAfterSeconds ? { retryAfterSeconds: cause.options.retryAfterSeconds } : {}),
    cause: err,
  });
}
