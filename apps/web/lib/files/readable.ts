import { type DisplayError, toDisplayError } from '../errors';
import { RestError, restError } from './rest';

/** Any failure of a Files, Account or Admin action → a readable message (REST and tRPC alike). */
export function readable(err: unknown): DisplayError {
  if (err instanceof RestError) return err.display;
  const shown = toDisplayError(err);
  // tRPC failures with a reason the REST wording explains better (e.g. WALLET_REQUIRED on pin by CID)
  if (shown.reason) {
    const better = restError(0, { reason: shown.reason, message: shown.message }).display;
    return { ...shown, message: better.message };
  }
  return shown;
}
