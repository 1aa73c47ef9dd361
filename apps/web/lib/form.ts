import type { z } from 'zod';
import type { DisplayError } from './errors';

/** Validate form values with a shared schema; on failure, the same shape a server error takes. */
export function validate<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; error: DisplayError } {
  const parsed = schema.safeParse(values);
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
