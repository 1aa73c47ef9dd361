import type { ServerResponse } from 'node:http';
import type { Logger } from '@plenum/core';
import { AppError } from '@plenum/core';
import { isConnectionError } from '@plenum/db';
import { userIdParam } from '@plenum/validators';
import { sendError } from '../../http/respond';

/** The {id} of a users path, or a 400 already sent. */
export function parseUserId(res: ServerResponse, raw: string | undefined): string | null {
  const parsed = userIdParam.safeParse(raw);
  if (parsed.success) return parsed.data;
  sendError(res, 'BAD_REQUEST', 'Invalid input: id: must be a user id (UUID)', {
    reason: 'VALIDATION_FAILED',
    issues: [{ path: 'id', message: 'must be a user id (UUID)', code: 'invalid_format' }],
  });
  return null;
}

/**
 * Domain errors in the one error body (docs/api.md, "Errors"); anything unexpected is logged and answered
 * without details.
 */
export function sendFailure(res: ServerResponse, log: Logger, err: unknown) {
  if (err instanceof AppError)
    return sendError(res, err.code, err.message, { reason: err.reason, issues: err.issues });
  if (isConnectionError(err))
    return sendError(res, 'SERVICE_UNAVAILABLE', 'The database is unreachable', {
      reason: 'DATABASE_UNAVAILABLE',
    });
  log.error({ err }, 'users route failed');
  return sendError(res, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}
