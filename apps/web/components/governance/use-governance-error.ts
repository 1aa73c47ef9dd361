'use client';
import type { z } from 'zod';
import type { DisplayError } from '../../lib/errors';
import { validate } from '../../lib/form';
import { governanceError } from '../../lib/governance/errors';
import { useErrorText } from '../../lib/i18n/error-text';

/**
 * governanceError in the page's language: the API's stable reasons and details (docs/api.md, "Errors")
 * and each field issue by its code (lib/i18n/error-text.ts); a reason without a text keeps the server's
 * message.
 */
export function useGovernanceError() {
  const translate = useTranslateError();
  return (err: unknown): DisplayError => translate(governanceError(err));
}

/** An error kept in English (e.g. in state by the vote flow) in the page's language, by its codes. */
export function useTranslateError() {
  return useErrorText().error;
}

/** Form values checked with a shared schema, as lib/form's validate does, in the page's language. */
export function useValidate() {
  const translate = useTranslateError();
  return <S extends z.ZodType>(
    schema: S,
    values: unknown,
  ): { ok: true; data: z.output<S> } | { ok: false; error: DisplayError } => {
    const checked = validate(schema, values);
    return checked.ok ? checked : { ok: false, error: translate(checked.error) };
  };
}
