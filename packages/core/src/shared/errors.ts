import type { CodedIssue, Detail, Reason } from '@plenum/validators';

export type { Detail, Reason };

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

/** a field issue of the error body; `code` from the list in @plenum/validators (docs/api.md, "Errors") */
export type FieldIssue = CodedIssue;

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      /** one of REASONS in @plenum/validators, so a misspelt reason fails the typecheck */
      reason?: Reason;
      /**
       * a finer code under `reason`, where the contract fixes the reason and a client can do better knowing
       * more (a vote refused NOT_ELIGIBLE because the account is suspended: `ACCOUNT_SUSPENDED`)
       */
      detail?: Detail;
      issues?: FieldIssue[];
      cause?: unknown;
      /** for 429 and 503: when the client may try again (the Retry-After header) */
      retryAfterSeconds?: number;
      /**
       * fields of the error body beside `reason` a client needs to act on the refusal (QUOTA_EXCEEDED:
       * `usedBytes`, `limitBytes`; docs/api.md, "Errors")
       */
      fields?: Record<string, number | null>;
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

export const badRequest = (message: string, issues?: FieldIssue[], reason?: Reason) =>
  new AppError('BAD_REQUEST', message, { issues, reason });
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message: string, reason?: Reason) => new AppError('FORBIDDEN', message, { reason });
export const conflict = (message: string, reason?: Reason) => new AppError('CONFLICT', message, { reason });
export const unauthorized = (message: string, reason?: Reason) =>
  new AppError('UNAUTHORIZED', message, { reason });
