import { passwordRuleResults } from '@plenum/validators';
import type { PasswordPolicy } from '../config';
import type { FieldIssue } from '../shared/errors';

/**
 * Every rule a password breaks, each named, so a form can show them all at once. The rules live in
 * @plenum/validators so the web app's live hints are the same code.
 */
export function checkPasswordPolicy(password: string, policy: PasswordPolicy): FieldIssue[] {
  return passwordRuleResults(password, policy)
    .filter((r) => !r.met)
    .map(({ path, code, message }) => ({ path, code, message }));
}
