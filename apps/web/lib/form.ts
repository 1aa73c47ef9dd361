import { fieldIssue } from '@plenum/validators/issue-codes';
import type { z } from 'zod';
import { type DisplayError, summaryError } from './errors';

interface Issue {
  code?: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  input?: unknown;
  expected?: string;
}

/** Readable wording where a shared schema keeps zod's default message (its own messages win). */
function plainMessage(issue: Issue): string | undefined {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a number';
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1)
    return 'required';
  if (issue.code === 'too_small' && issue.origin === 'number')
    return `must be at least ${String(issue.minimum)}`;
  if (issue.code === 'too_big' && issue.origin === 'number')
    return `must be at most ${String(issue.maximum)}`;
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `must be at most ${String(issue.maximum)} characters`;
  if (issue.code === 'invalid_format') return 'is not in the expected format';
  if (issue.code === 'unrecognized_keys') return 'unexpected field';
  return undefined;
}

/**
 * Validate form values with a shared schema; on failure, the same shape a server error takes (English
 * messages, with the issue codes that put them into the page's language where they are shown).
 */
export function validate<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; error: DisplayError } {
  const parsed = schema.safeParse(values, { error: (i) => plainMessage(i as Issue), reportInput: true });
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues = parsed.error.issues.map(fieldIssue);
  const fields: Record<string, string[]> = {};
  for (const issue of issues) fields[issue.path] = [...(fields[issue.path] ?? []), issue.message];
  return { ok: false, error: { ...summaryError('fixFields', fields), issues } };
}

export const formValues = (form: HTMLFormElement) =>
  Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
