import { zodIssuesToFieldIssues } from '@plenum/api';
import { AppError, type FieldIssue, type VisibilityRequest } from '@plenum/core';
import { nulCharacterIssues, visibilityInput } from '@plenum/validators';

/**
 * `visibility` and `daoId` of an upload's form fields or a pin's query or body (docs/storage.md, "Private
 * and members-only files"); other fields of a form or query are not this reader's business (a JSON body's
 * are refused: `strict`), an empty one counts as absent.
 * 400 VALIDATION_FAILED for a value that is not one.
 */
const FIELDS = ['visibility', 'daoId'] as const;

export function readVisibility(
  source: Record<string, unknown> | undefined,
  options: { strict?: boolean } = {},
): VisibilityRequest {
  const picked: Record<string, unknown> = {};
  for (const key of FIELDS) {
    const value = source?.[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const issues: FieldIssue[] = nulCharacterIssues(picked);
  // strict (a JSON body): any other field is refused as unknown, as on every JSON path
  if (options.strict)
    for (const key of Object.keys(source ?? {}))
      if (!FIELDS.includes(key as (typeof FIELDS)[number]))
        issues.push({ path: key, message: 'unknown field', code: 'unrecognized_keys' });
  const parsed = visibilityInput.safeParse(picked);
  if (!issues.length && parsed.success) return parsed.data;
  if (!parsed.success) issues.push(...zodIssuesToFieldIssues(parsed.error.issues));
  throw new AppError(
    'BAD_REQUEST',
    `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { reason: 'VALIDATION_FAILED', issues },
  );
}
