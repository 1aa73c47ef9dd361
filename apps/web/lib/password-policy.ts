/**
 * Live hints for the register form. The server's policy comes from its environment and stays the
 * authority (its refusal names each failed rule); these are its documented defaults (SPEC section 6),
 * because the API does not publish the configured policy.
 */
export const defaultPasswordPolicy = {
  minLength: 8,
  maxLength: 128,
  requireUppercase: true,
  requireLowercase: true,
  requireNumbers: true,
  requireSpecialChars: false,
};

export interface PasswordRule {
  code: string;
  label: string;
  met: boolean;
}

export function passwordRules(password: string, policy = defaultPasswordPolicy): PasswordRule[] {
  const length = [...password].length;
  const rules: PasswordRule[] = [
    { code: 'minLength', label: `At least ${policy.minLength} characters`, met: length >= policy.minLength },
    { code: 'maxLength', label: `At most ${policy.maxLength} characters`, met: length <= policy.maxLength },
  ];
  if (policy.requireUppercase)
    rules.push({ code: 'requireUppercase', label: 'An uppercase letter', met: /\p{Lu}/u.test(password) });
  if (policy.requireLowercase)
    rules.push({ code: 'requireLowercase', label: 'A lowercase letter', met: /\p{Ll}/u.test(password) });
  if (policy.requireNumbers)
    rules.push({ code: 'requireNumbers', label: 'A number', met: /\p{Nd}/u.test(password) });
  if (policy.requireSpecialChars)
    rules.push({
      code: 'requireSpecialChars',
      label: 'A special character',
      met: /[^\p{L}\p{Nd}\s]/u.test(password),
    });
  return rules;
}
