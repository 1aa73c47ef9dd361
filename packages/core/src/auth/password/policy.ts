import { passwordRuleResults } from '@plenum/validators';
import type { PasswordPolicy } from '../../config';
import { badRequest, type FieldIssue } from '../../shared/errors';

/**
 * Every rule a password breaks, each named, so a form can show them all at once. The rules live in
 * @plenum/validators so the web app's live hints are the same code. `field` names the input the issues
 * point at (`password` at registration, `newPassword` when changing or resetting it).
 */
export function checkPasswordPolicy(
  password: string,
  policy: PasswordPolicy,
  field = 'password',
): FieldIssue[] {
  return passwordRuleResults(password, policy)
    .filter((r) => !r.met)
    .map(({ code, message, params }) => ({ path: field, code, message, ...(params ? { params } : {}) }));
}

/** Throws the 400 `PASSWORD_POLICY` naming each failed rule, or returns when the password meets them all. */
export function assertPasswordPolicy(password: string, policy: PasswordPolicy, field = 'password') {
  const failed = checkPasswordPolicy(password, policy, field);
  if (failed.length) {
    throw badRequest(
      `Password does not meet the policy: ${failed.map((f) => f.message).join('; ')}`,
      failed,
      'PASSWORD_POLICY',
    );
  }
}
