import { TRPCClientError } from '@trpc/client';
import type { FieldIssue } from '../errors';

/** Test-only: what the web client holds after the API answered with an error (the server formatter's shape). */
export function serverError(
  options: {
    message?: string;
    httpStatus?: number;
    reason?: string;
    detail?: string;
    issues?: FieldIssue[];
  } = {},
) {
  const { message = 'Request failed', httpStatus = 400, reason, detail, issues } = options;
  return TRPCClientError.from({
    error: {
      message,
      code: -32600,
      data: { code: 'BAD_REQUEST', httpStatus, path: 'test.call', reason, detail, issues },
    },
  });
}

/** Test-only: a request that never reached the server (fetch failed). */
export const unreachable = () => TRPCClientError.from(new TypeError('fetch failed'));
