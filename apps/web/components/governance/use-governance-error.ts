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

/** The shared schemas' own messages (@plenum/validators), by their English words */
const SCHEMA_MESSAGES: Record<string, string> = {
  'must be 0x followed by 40 hex characters': 'address',
  'must be 0x-prefixed hex': 'hex',
  'must not be empty': 'notEmpty',
  'must be at least one second': 'oneSecond',
  'token-holders needs a token': 'holdersNeedToken',
  'options must be distinct (ignoring case)': 'distinct',
  'only with membership token-holders': 'onlyHolders',
  'give 2 to 5 options (or none)': 'optionCount',
  'a basic proposal votes For, Against, Abstain: leave votingOptions out': 'basicOptions',
  'a DAO with a token is token-weighted': 'tokenWeighted',
  'at most 5 options': 'atMostFive',
  'must fit in uint256': 'uint256',
  'must be a non-negative integer as a decimal string': 'decimalString',
};

/** a shared schema's own message (the form's check or the API's 400) in the page's language */
export function useSchemaMessage() {
  const t = useTranslations('governance.schema');
  const tv = useTranslations('common.validation');
  return (message: string): string => {
    if (message === 'required') return tv('required');
    const key = SCHEMA_MESSAGES[message];
    return key ? t(key) : message;
  };
}

/** An error already shown in English (e.g. kept in state by the vote flow) in the page's language. */
export function useTranslateError() {
  const t = useTranslations('governance.errors');
  const tv = useTranslations('common.validation');
  const schemaMessage = useSchemaMessage();
  return (shown: DisplayError): DisplayError => {
    const fields = Object.fromEntries(
      Object.entries(shown.fields).map(([path, messages]) => [path, messages.map(schemaMessage)]),
    );
    // the finer detail first (why a vote is NOT_ELIGIBLE), then the reason
    if (shown.detail && t.has(shown.detail)) return { ...shown, fields, message: t(shown.detail) };
    if (shown.reason && t.has(shown.reason)) return { ...shown, fields, message: t(shown.reason) };
    if (shown.message === 'Please correct the highlighted fields.')
      return { ...shown, fields, message: tv('fixFields') };
    return { ...shown, fields };
  };
}

/**
 * Form values checked with a shared schema, as lib/form's validate does, with zod's default messages and
 * the summary in the page's language (the schemas' own messages win).
 */
export function useValidate() {
  const message = useZodMessage();
  const schemaMessage = useSchemaMessage();
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
      fields[key] = [...(fields[key] ?? []), schemaMessage(issue.message)];
    }
    return { ok: false, error: { message: tv('fixFields'), fields } };
  };
}
