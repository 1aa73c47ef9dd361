import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy, passwordRuleResults } from '@plenum/validators';

/**
 * Live hints for the register form: the same rule code the server runs (@plenum/validators), with the
 * server's configured policy from system.info; the defaults (docs/accounts.md, "Password policy") only
 * bridge the first load.
 */
export const defaultPasswordPolicy: PasswordPolicy = DEFAULT_PASSWORD_POLICY;

export interface PasswordRule {
  code: string;
  label: string;
  met: boolean;
}

const LABELS: Record<string, (p: PasswordPolicy) => string> = {
  minLength: (p) => `At least ${p.minLength} characters`,
  maxLength: (p) => `At most ${p.maxLength} characters`,
  requireUppercase: () => 'An uppercase letter',
  requireLowercase: () => 'A lowercase letter',
  requireNumbers: () => 'A number',
  requireSpecialChars: () => 'A special character',
};

export function passwordRules(
  password: string,
  policy: PasswordPolicy = defaultPasswordPolicy,
): PasswordRule[] {
  return passwordRuleResults(password, policy).map((r) => ({
    code: r.code,
    label: LABELS[r.code]!(policy),
    met: r.met,
  }));
}
