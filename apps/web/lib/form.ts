import type { z } from 'zod';
import type { DisplayError } from './errors';

/** Readable wording where a shared schema keeps zod's default message (its own messages win). */
function plainMessage(issue: { code?: string; minimum?: unknown; maximum?: unknown; origin?: string }) {
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1)
    return 'required';
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `must be at most ${String(issue.maximum)} characters`;
  if (issue.code === 'unrecognized_keys') return 'unexpected field';
  return undefined;
}

/** Validate form values with a shared schema; on failure, the same shape a server error takes. */
export function validate<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; error: DisplayError } {
  const parsed = schema.safeParse(values, { error: plainMessage });
  if (parsed.success) return { ok: true, data: parsed.data };
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.');
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return { ok: false, error: { message: 'Please correct the highlighted fields.', fields } };
}

export const formValues = (form: HTMLFormElement) =>
  Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
