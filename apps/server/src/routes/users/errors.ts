import { AppError } from '@plenum/core';
import { userIdParam } from '@plenum/validators';

/** The {id} of a users path; a 400 naming the field otherwise. */
export function parseUserId(raw: string | undefined): string {
  const parsed = userIdParam.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new AppError('BAD_REQUEST', 'Invalid input: id: must be a user id (UUID)', {
    reason: 'VALIDATION_FAILED',
    issues: [{ path: 'id', message: 'must be a user id (UUID)', code: 'invalid_format' }],
  });
}
