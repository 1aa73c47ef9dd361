import { useTranslations } from 'next-intl';
import type { DisplayError, FieldIssue } from '../errors';

/**
 * Errors in the page's language, by their stable codes (docs/api.md, "Errors"): the API's `reason` and
 * `detail`, each field issue's `code` with its `params`, and the summaries the app writes itself; texts
 * in messages/<locale>/errors.json. Never by the English wording: a code without a text keeps the
 * server's message, and an issue the page wrote itself (code `custom` with no code of its own) is
 * already in the page's language.
 */
export interface ErrorTranslator {
  (key: string, values?: Record<string, string | number>): string;
  has(key: string): boolean;
}

/** the ICU arguments every issue text may name, so a text never lacks one */
const NO_PARAMS = {
  origin: 'other',
  format: 'other',
  expected: 'other',
  minimum: '',
  maximum: '',
  name: '',
};

/** one field issue's text */
export function issueText(t: ErrorTranslator, issue: FieldIssue): string {
  const { code, params = {} } = issue;
  if (!code || code === 'custom') return issue.message;
  // an empty text or a missing value reads "required", whatever check noticed it
  if (
    (code === 'invalid_type' && params.received === 'nothing') ||
    (code === 'too_small' && params.origin === 'string' && Number(params.minimum) === 1)
  )
    return t('issues.required');
  const key = `issues.${code}`;
  return t.has(key) ? t(key, { ...NO_PARAMS, ...params }) : issue.message;
}

/** the sentence of an error: the finer detail first (why a vote is NOT_ELIGIBLE), then the reason */
export function errorMessage(t: ErrorTranslator, shown: DisplayError): string {
  if (shown.detail && t.has(`details.${shown.detail}`)) return t(`details.${shown.detail}`);
  if (shown.reason && t.has(`reasons.${shown.reason}`)) return t(`reasons.${shown.reason}`);
  if (shown.summary) return t(`summary.${shown.summary}`);
  return shown.message;
}

/** `shown` with its sentence and each field's messages in the page's language */
export function translateError(t: ErrorTranslator, shown: DisplayError): DisplayError {
  const message = errorMessage(t, shown);
  if (!shown.issues?.length) return { ...shown, message };
  const fields: Record<string, string[]> = {};
  for (const issue of shown.issues) {
    const key = issue.path || '';
    fields[key] = [...(fields[key] ?? []), issueText(t, issue)];
  }
  return { ...shown, message, fields };
}

/** translateError and issueText with the page's messages */
export function useErrorText() {
  const t = useTranslations('errors') as unknown as ErrorTranslator;
  return {
    error: (shown: DisplayError) => translateError(t, shown),
    issue: (issue: FieldIssue) => issueText(t, issue),
  };
}
