import { z } from 'zod';

/**
 * The configurable password policy (docs/accounts.md, "Password policy"); the server publishes it in
 * system.info.
 */
export const passwordPolicySchema = z.object({
  minLength: z.number().int(),
  maxLength: z.number().int(),
  requireUppercase: z.boolean(),
  requireLowercase: z.boolean(),
  requireNumbers: z.boolean(),
  requireSpecialChars: z.boolean(),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

/** the policy without configuration: the server's env defaults, and the web form's until system.info answers */
export const DEFAULT_PASSWORD_POLICY: Readonly<PasswordPolicy> = Object.freeze({
  minLength: 8,
  maxLength: 128,
  requireUppercase: true,
  requireLowercase: true,
  requireNumbers: true,
  requireSpecialChars: false,
});

export interface PasswordRuleResult {
  path: 'password';
  code:
    | 'minLength'
    | 'maxLength'
    | 'requireUppercase'
    | 'requireLowercase'
    | 'requireNumbers'
    | 'requireSpecialChars';
  message: string;
  /** the length a length rule asks for, for a text in another language */
  params?: { minimum: number } | { maximum: number };
  met: boolean;
}

/** Every rule of the policy with whether the password meets it: the server refuses unmet ones, forms show them live. */
export function passwordRuleResults(password: string, policy: PasswordPolicy): PasswordRuleResult[] {
  const length = [...password].length;
  const rules: PasswordRuleResult[] = [
    {
      path: 'password',
      code: 'minLength',
      message: `must be at least ${policy.minLength} characters`,
      params: { minimum: policy.minLength },
      met: length >= policy.minLength,
    },
    {
      path: 'password',
      code: 'maxLength',
      message: `must be at most ${policy.maxLength} characters`,
      params: { maximum: policy.maxLength },
      met: length <= policy.maxLength,
    },
  ];
  const add = (on: boolean, code: PasswordRuleResult['code'], message: string, met: boolean) => {
    if (on) rules.push({ path: 'password', code, message, met });
  };
  add(
    policy.requireUppercase,
    'requireUppercase',
    'must contain an uppercase letter',
    /\p{Lu}/u.test(password),
  );
  add(
    policy.requireLowercase,
    'requireLowercase',
    'must contain a lowercase letter',
    /\p{Ll}/u.test(password),
  );
  add(policy.requireNumbers, 'requireNumbers', 'must contain a number', /\p{Nd}/u.test(password));
  add(
    policy.requireSpecialChars,
    'requireSpecialChars',
    'must contain a special character',
    /[^\p{L}\p{Nd}\s]/u.test(password),
  );
  return rules;
}
