import type { PasswordPolicy } from '../config';
import type { FieldIssue } from '../shared/errors';

/** Every rule a password breaks, each named, so a form can show them all at once. */
export function checkPasswordPolicy(password: string, policy: PasswordPolicy): FieldIssue[] {
  const failed: FieldIssue[] = [];
  const add = (code: string, message: string) => failed.push({ path: 'password', code, message });
  const length = [...password].length;
  if (length < policy.minLength) add('minLength', `must be at least ${policy.minLength} characters`);
  if (length > policy.maxLength) add('maxLength', `must be at most ${policy.maxLength} characters`);
  if (policy.requireUppercase && !/\p{Lu}/u.test(password))
    add('requireUppercase', 'must contain an uppercase letter');
  if (policy.requireLowercase && !/\p{Ll}/u.test(password))
    add('requireLowercase', 'must contain a lowercase letter');
  if (policy.requireNumbers && !/\p{Nd}/u.test(password)) add('requireNumbers', 'must contain a number');
  if (policy.requireSpecialChars && !/[^\p{L}\p{Nd}\s]/u.test(password))
    add('requireSpecialChars', 'must contain a special character');
  return failed;
}
