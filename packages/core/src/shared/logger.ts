import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/** Secrets never reach the logs, whatever a caller passes in. */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'signature',
  '*.signature',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

/** the fields of an error worth logging; anything else (query parameters, row values) stays out */
const ERROR_FIELDS = [
  'code',
  'reason',
  'severity',
  'routine',
  'constraint',
  'constraint_name',
  'table',
  'table_name',
  'column',
  'column_name',
  'statusCode',
] as const;

/**
 * Errors are logged by an allow-list, never by copying their properties: a failed query's error carries
 * its parameters (Drizzle puts them in the message, postgres.js and PGlite in properties, PostgreSQL in
 * `detail`), and those are user data and secrets (token hashes, emails). Kept: type, message without
 * the parameters, the SQL text, stack, the fields above and the cause chain (docs/operations.md, "Logs").
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) {
    return typeof err === 'object' && err !== null ? { type: 'non-error object' } : { message: String(err) };
  }
  // PostgreSQL quotes the offending value in its message ('invalid input syntax …: "<value>"')
  const fromDatabase = typeof (err as { severity?: unknown }).severity === 'string';
  const clean = (text: string) => (fromDatabase ? withoutQuoted(text) : withoutParams(text));
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? err.name,
    message: clean(err.message),
  };
  for (const key of ERROR_FIELDS) {
    const v = (err as unknown as Record<string, unknown>)[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = v;
  }
  const query = (err as { query?: unknown }).query;
  if (typeof query === 'string') out.query = query.slice(0, 2_000);
  if (err.stack) out.stack = clean(err.stack);
  if (err.cause !== undefined && depth < 5) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/** Drizzle's "Failed query: …\nparams: …" keeps the SQL text and loses the values */
const withoutParams = (text: string) =>
  text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [omitted]');

const withoutQuoted = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '"…"');

export function createLogger(
  options: { level?: string; name?: string; destination?: DestinationStream } = {},
): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      name: options.name ?? 'plenum',
      redact: REDACT_PATHS,
      serializers: { err: serializeError, error: serializeError, cause: serializeError },
    },
    options.destination,
  );
}
