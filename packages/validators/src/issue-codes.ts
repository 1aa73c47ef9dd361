/**
 * Field issue codes: zod's own where a schema keeps zod's check (`too_small` with `params.minimum`, …),
 * and one code per message the schemas, the password policy and the domain write themselves.
 */
export const ISSUE_CODES = [
  // zod's (https://zod.dev/error-customization), with what params they carry
  'invalid_type',
  'too_small', // params.origin, params.minimum
  'too_big', // params.origin, params.maximum
  'invalid_format', // params.format
  'not_multiple_of',
  'unrecognized_keys',
  'invalid_union',
  'invalid_key',
  'invalid_element',
  'invalid_value',
  'custom',
  // before any schema (docs/api.md, "Validation")
  'nul_character',
  'control_character',
  // the schemas' own
  'invalid_email',
  'invalid_address',
  'invalid_checksum',
  'invalid_hex',
  'invalid_decimal',
  'uint256_overflow',
  'invalid_integer',
  'invalid_user_id',
  'invalid_language',
  'invalid_date',
  'date_too_early',
  'invalid_phone',
  'phone_needs_digits',
  'not_empty',
  'options_count',
  'options_distinct',
  'options_at_most_five',
  'basic_options',
  'token_weighted',
  'holders_need_token',
  'only_with_holders',
  'at_least_one_second',
  'too_long_64k',
  'invalid_choice',
  'not_json_object',
  'too_many_entries',
  'key_empty',
  'key_too_long',
  'key_duplicate',
  'scopes_distinct',
  // the password policy (docs/accounts.md, "Password policy"); params.minimum / params.maximum
  'minLength',
  'maxLength',
  'requireUppercase',
  'requireLowercase',
  'requireNumbers',
  'requireSpecialChars',
  // the domain's
  'not_in_past',
  'invalid_token',
  'invalid_current_password',
  'invalid_mfa_code',
  'unchanged',
  'terms_not_accepted',
  'active_dependency',
  'owns_active_dao', // params.name
  // a wallet that still runs a DAO (docs/accounts.md, "Unlinking a wallet"): params.daoId, params.name
  'owns_dao',
  'pending_dao_owner',
  'dao_role', // and params.role
  'reset_token_invalid',
  'reset_token_used',
  'reset_token_expired',
  'email_unchanged',
  'email_change_token_invalid',
  'email_change_token_used',
  'email_change_token_expired',
  // a ballot that does not fit its voting system (docs/governance.md, "Voting systems")
  'unknown_option',
  'duplicate_option',
  'invalid_points',
  'no_points',
  'empty_ranking',
  // a file's visibility (docs/storage.md, "Private and members-only files")
  'dao_id_required',
  'dao_id_only_with_dao',
  // an avatar's issue repeats its reason
  'FEATURE_DISABLED',
  'AVATAR_TOO_LARGE',
  'AVATAR_EMPTY',
  'AVATAR_TYPE_NOT_ALLOWED',
  'AVATAR_STORAGE_FAILED',
  'UPLOAD_INCOMPLETE',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/** numbers and names an issue's text needs (the `minimum` of a `too_small`) */
export type IssueParams = Record<string, string | number>;

export interface CodedIssue {
  /** dotted path of the offending field, '' for the whole input */
  path: string;
  /** in English, for API clients; a page shows the text of `code` in its own language */
  message: string;
  code?: IssueCode;
  params?: IssueParams;
}

/**
 * A schema check's own English message with its stable code: `.regex(re, coded('invalid_hex', '…'))`.
 * zod copies `params` onto the issues it raises only for refinements, so for any other check the code is
 * put there while zod asks the check for its message (schema.test.ts proves it stays there).
 */
export function coded(code: IssueCode, message: string) {
  return {
    error: (issue: object) => {
      const raised = issue as { params?: Record<string, unknown> };
      raised.params = { ...raised.params, code };
      return message;
    },
  };
}

/** The same for refinements, where zod carries `params` itself: `.refine(fn, refined('uint256_overflow', '…'))`. */
export const refined = (code: IssueCode, message: string) => ({ message, params: { code } });

const PARAM_KEYS = ['origin', 'minimum', 'maximum', 'format', 'expected', 'divisor'] as const;

/** what fieldIssue reads of a zod issue (any object zod raised, or one written in its shape) */
export interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
}

/** A zod issue as a field issue: the schema's own code (`params.code`) or zod's, with what its text needs. */
export function fieldIssue(issue: ZodLikeIssue): CodedIssue {
  const raw = issue as unknown as Record<string, unknown> & { params?: { code?: unknown } };
  const own = raw.params?.code;
  const code = (typeof own === 'string' && isIssueCode(own) ? own : issue.code) as IssueCode | undefined;
  const params: IssueParams = {};
  for (const key of PARAM_KEYS) {
    const v = raw[key];
    if (typeof v === 'string' || typeof v === 'number') params[key] = v;
    else if (typeof v === 'bigint') params[key] = v.toString();
  }
  // a form reports the input: an absent value is "required", not a wrong type
  if (issue.code === 'invalid_type' && 'input' in raw && (raw.input === undefined || raw.input === null))
    params.received = 'nothing';
  return {
    path: issue.path.map(String).join('.'),
    message: issue.message,
    ...(code ? { code } : {}),
    ...(Object.keys(params).length ? { params } : {}),
  };
}

export const isIssueCode = (code: string): code is IssueCode =>
  (ISSUE_CODES as readonly string[]).includes(code);
