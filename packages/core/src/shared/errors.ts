/**
 * Error codes are tRPC code names; the API layer maps each to one HTTP status (docs/api.md, "Status codes").
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_REQUESTS',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
  'INTERNAL_SERVER_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldIssue {
  /** dotted path of the offending field, '' for the whole input */
  path: string;
  message: string;
  code?: string;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      reason?: string;
      /**
       * a finer code under `reason`, where the contract fixes the reason and a client can do better knowing
       * more (a vote refused NOT_ELIGIBLE because the account is suspended: `ACCOUNT_SUSPENDED`)
       */
      detail?: string;
      issues?: FieldIssue[];
      cause?: unknown;
      /** for 429 and 503: when the client may try again (the Retry-After header) */
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message, { cause: options.cause });
  }
  get reason() {
    return this.options.reason;
  }
  get detail() {
    return this.options.detail;
  }
  get issues() {
    return this.options.issues;
  }
}

export const badRequest = (message: string, issues?: FieldIssue[], reason?: string) =>
  new AppError('BAD_REQUEST', message, { issues, reason });
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message: string, reason?: string) => new AppError('FORBIDDEN', message, { reason });
export const conflict = (message: string, reason?: string) => new AppError('CONFLICT', message, { reason });
export const unauthorized = (message: string, reason?: string) =>
  new AppError('UNAUTHORIZED', message, { reason });
