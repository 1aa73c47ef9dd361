import type { CodedIssue } from '@plenum/validators';
import { TRPCClientError } from '@trpc/client';

/** a field issue of the API's error body: `code` and `params` say it in any language (lib/i18n/error-text.ts) */
export type FieldIssue = CodedIssue;

/** the sentences the app says itself about a failure, by key (messages/<locale>/errors.json, "summary") */
export type Summary = 'fixFields' | 'unreachable' | 'tooMany' | 'requestFailed' | 'wentWrong';

/**
 * What a form shows for a failure: one sentence, an optional stable reason, and per-field messages.
 * `message` and `fields` are in English; the codes beside them (reason, detail, summary, each issue's
 * code) put them into the page's language where the error is shown (lib/i18n/error-text.ts).
 */
export interface DisplayError {
  message: string;
  reason?: string;
  /** a finer code under `reason` (a vote refused NOT_ELIGIBLE: why, e.g. ACCOUNT_SUSPENDED) */
  detail?: string;
  /** the app's own sentence, when `message` is one */
  summary?: Summary;
  fields: Record<string, string[]>;
  /** the field issues behind `fields`, with their codes */
  issues?: FieldIssue[];
}

const SUMMARIES: Record<Summary, string> = {
  fixFields: 'Please correct the highlighted fields.',
  unreachable: 'The server could not be reached. Check your connection.',
  tooMany: 'Too many attempts. Please wait a minute and try again.',
  requestFailed: 'Request failed.',
  wentWrong: 'Something went wrong.',
};

/** a failure the app words itself (English here; the page's language where it is shown) */
export const summaryError = (summary: Summary, fields: Record<string, string[]> = {}): DisplayError => ({
  message: SUMMARIES[summary],
  summary,
  fields,
});

const looksLikeJson = (s: string) => /^\s*[[{]/.test(s);

function groupIssues(issues: FieldIssue[] | undefined): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues ?? []) {
    const key = issue.path || '';
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return fields;
}

/** Wallet and viem errors carry a short human message; a rejected request has a well-known code. */
function walletMessage(err: Error & { code?: number; shortMessage?: string }): string | null {
  if (err.name === 'UserRejectedRequestError' || err.code === 4001)
    return 'You declined the request in your wallet.';
  if (err.name === 'ProviderNotFoundError')
    return 'No browser wallet was found. Install MetaMask or another Ethereum wallet and try again.';
  if (err.name === 'ConnectorAlreadyConnectedError') return 'Your wallet is already connected.';
  return err.shortMessage ?? null;
}

/** Any thrown value → something a person can read. Never raw JSON. */
export function toDisplayError(err: unknown): DisplayError {
  if (err instanceof TRPCClientError) {
    const data = (err.data ?? {}) as {
      reason?: string;
      detail?: string;
      issues?: FieldIssue[];
      httpStatus?: number;
    };
    const fields = groupIssues(data.issues);
    let summary: Summary | undefined;
    if (!data.httpStatus && !err.shape) summary = 'unreachable';
    else if (data.httpStatus === 429) summary = 'tooMany';
    else if (!err.message || looksLikeJson(err.message))
      summary = Object.keys(fields).length ? 'fixFields' : 'requestFailed';
    return {
      message: summary ? SUMMARIES[summary] : err.message,
      ...(summary ? { summary } : {}),
      ...(data.reason ? { reason: data.reason } : {}),
      ...(data.detail ? { detail: data.detail } : {}),
      fields,
      ...(data.issues?.length ? { issues: data.issues } : {}),
    };
  }
  if (err instanceof Error) {
    const wallet = walletMessage(err);
    if (wallet) return { message: wallet, fields: {} };
    return looksLikeJson(err.message) ? summaryError('wentWrong') : { message: err.message, fields: {} };
  }
  return summaryError('wentWrong');
}
