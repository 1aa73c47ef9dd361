import { AppError, type Detail, type ErrorCode, type FieldIssue, type Reason } from '@plenum/core';
import { isConnectionError, isLockConflict, isUniqueViolation } from '@plenum/db';
import { fieldIssue, type ZodLikeIssue } from '@plenum/validators';
import { TRPCError } from '@trpc/server';

/** Domain error → tRPC error: the one mapping (tRPC code names are also the HTTP statuses' names). */
export function toTRPCError(err: unknown): TRPCError | null {
  if (err instanceof TRPCError) {
    if (err.code === 'INTERNAL_SERVER_ERROR' && err.cause) return toTRPCError(err.cause) ?? err;
    return err;
  }
  if (err instanceof AppError)
    return new TRPCError({ code: err.code as ErrorCode, message: err.message, cause: err });
  if (isUniqueViolation(err)) {
    return new TRPCError({
      code: 'CONFLICT',
      message: 'Conflicts with an existing record',
      cause: new AppError('CONFLICT', 'duplicate'),
    });
  }
  if (isLockConflict(err)) return lockConflict();
  if (isConnectionError(err)) {
    return new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The database is unreachable',
      cause: new AppError('SERVICE_UNAVAILABLE', 'database unreachable', { reason: 'DATABASE_UNAVAILABLE' }),
    });
  }
  return null;
}

/** 503 DATABASE_BUSY: a deadlock or serialization failure, nothing written (docs/operations.md, "Lock conflicts") */
function lockConflict() {
  return new TRPCError({
    code: 'SERVICE_UNAVAILABLE',
    message:
      'The database stopped this request in a conflict with a concurrent one; nothing was changed, try again',
    cause: new AppError('SERVICE_UNAVAILABLE', 'lock conflict', { reason: 'DATABASE_BUSY' }),
  });
}

/** each issue with its stable code and what its text needs (docs/api.md, "Errors") */
export function zodIssuesToFieldIssues(issues: ZodLikeIssue[]): FieldIssue[] {
  return issues.map(fieldIssue);
}

/** reason and field issues of an error, whatever layer raised it */
export function errorDetails(error: TRPCError): {
  reason?: Reason;
  detail?: Detail;
  issues?: FieldIssue[];
  fields?: Record<string, number | null>;
} {
  const cause = error.cause as unknown;
  if (cause instanceof AppError)
    return {
      reason: cause.reason,
      detail: cause.detail,
      issues: cause.issues,
      ...(cause.options.fields ? { fields: cause.options.fields } : {}),
    };
  if (cause && typeof cause === 'object' && (cause as Error).name === 'ZodError') {
    return {
      reason: 'VALIDATION_FAILED',
      issues: zodIssuesToFieldIssues((cause as unknown as { issues: ZodLikeIssue[] }).issues),
    };
  }
  return {};
}
