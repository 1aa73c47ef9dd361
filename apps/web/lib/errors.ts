import { TRPCClientError } from '@trpc/client';

export interface FieldIssue {
  path: string;
  message: string;
  code?: string;
}

/** What a form shows for a failure: one sentence, an optional stable reason, and per-field messages. */
export interface DisplayError {
  message: string;
  reason?: string;
  /** a finer code under `reason` (a vote refused NOT_ELIGIBLE: why, e.g. ACCOUNT_SUSPENDED) */
  detail?: string;
  fields: Record<string, string[]>;
}

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
    let message = err.message;
    if (!data.httpStatus && !err.shape) message = 'The server could not be reached. Check your connection.';
    else if (data.httpStatus === 429) message = 'Too many attempts. Please wait a minute and try again.';
    else if (!message || looksLikeJson(message))
      message = Object.keys(fields).length ? 'Please correct the highlighted fields.' : 'Request failed.';
    return {
      message,
      ...(data.reason ? { reason: data.reason } : {}),
      ...(data.detail ? { detail: data.detail } : {}),
      fields,
    };
  }
  if (err instanceof Error) {
    return {
      message: walletMessage(err) ?? (looksLikeJson(err.message) ? 'Something went wrong.' : err.message),
      fields: {},
    };
  }
  return { message: 'Something went wrong.', fields: {} };
}
