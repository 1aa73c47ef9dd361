import { z } from 'zod';

/**
 * The one error body (docs/api.md, "Errors"), for the OpenAPI entries of plain routes (procedures get theirs
 * generated).
 */
export const errorBodySchema = z
  .object({
    code: z.string(),
    reason: z.string().optional(),
    /** a finer stable code under `reason` on a few refusals (a vote's NOT_ELIGIBLE: why) */
    detail: z.string().optional(),
    message: z.string(),
    issues: z
      .array(
        z.object({
          path: z.string(),
          message: z.string(),
          /** one of ISSUE_CODES in @plenum/validators (docs/api.md, "Errors") */
          code: z.string().optional(),
          /** what a text in another language needs: minimum, maximum, origin, format, expected */
          params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
        }),
      )
      .optional(),
    /** QUOTA_EXCEEDED: the bytes the caller owns and their limit (docs/storage.md, "Quotas") */
    usedBytes: z.number().int().optional(),
    limitBytes: z.number().int().optional(),
  })
  .meta({ id: 'ErrorBody' });

export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});
