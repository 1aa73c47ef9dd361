import type { z } from 'zod';

/** Test-only: what a schema says about a value, as `path: message` lines ([] when it passes). */
export function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`);
}

/** Test-only: the parsed value, failing the test with the issues when the value is refused. */
export function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`refused: ${issuesOf(schema, value).join('; ')}`);
  return result.data;
}

export const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;
