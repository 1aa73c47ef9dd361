import en from '../../messages/en/errors.json';
import { type DisplayError, toDisplayError } from '../errors';

/**
 * toDisplayError, with the API's stable reason and detail codes (docs/api.md, "Errors") replaced by an
 * English sentence a member can act on: the English texts of messages/en/errors.json, the one list; a
 * page says them in its own language with lib/i18n/error-text.ts.
 */
export function governanceError(err: unknown): DisplayError {
  const shown = toDisplayError(err);
  // the finer detail first (why NOT_ELIGIBLE), then the reason
  const sentence =
    (shown.detail ? (en.details as Record<string, string>)[shown.detail] : undefined) ??
    (shown.reason ? (en.reasons as Record<string, string>)[shown.reason] : undefined);
  return sentence ? { ...shown, message: sentence } : shown;
}
