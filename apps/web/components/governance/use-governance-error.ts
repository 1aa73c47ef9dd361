'use client';
import { useTranslations } from 'next-intl';
import type { z } from 'zod';
import type { DisplayError } from '../../lib/errors';
import { governanceError } from '../../lib/governance/errors';
import { useZodMessage } from '../ui/form';

/**
 * governanceError in the page's language: the API's stable reasons (docs/api.md, "Errors") as sentences
 * from messages/<locale>/governance.json; a reason without a sentence keeps the server's message.
 */
export function useGovernanceError() {
  const translate = useTranslateError();
  return (err: unknown): DisplayError => translate(governanceError(err));
}

/** An error already shown in English (e.g. kept in state by the vote flow) in the page's language. */
export function useTranslateError() {
  const t = useTranslations('governance.errors');
  const tv = useTranslations('common.validation');
  return (shown: DisplayError): DisplayError => {
    if (shown.reason && t.has(shown.reason)) return { ...shown, message: t(shown.reason) };
    if (shown.message === 'Please correct the highlighted fields.')
      return { ...shown, message: tv('fixFields') };
    return shown;
  };
}

/**
 * Form values checked with a shared schema, as lib/form's validate does, with zod's default messages and
 * the summary in the page's language (the schemas' own messages win).
 */
export function useValidate() {
  const message = useZodMessage();
  const tv = useTranslations('common.validation');
  return <S extends z.ZodType>(
    schema: S,
    values: unknown,
  ): { ok: true; data: z.output<S> } | { ok: false; error: DisplayError } => {
    const parsed = schema.safeParse(values, { error: message });
    if (parsed.success) return { ok: true, data: parsed.data };
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.');
      fields[key] = [...(fields[key] ?? []), issue.message];
    }
    return { ok: false, error: { message: tv('fixFields'), fields } };
  };
}
