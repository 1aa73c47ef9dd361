import type { DisplayError, FieldIssue } from '../errors';

/**
 * Failures of the plain REST routes (multipart uploads, the Pinning Service API), which the tRPC client
 * does not cover. The body is `{ code, reason?, message, issues? }` (docs/api.md, "Errors"), or the Pinning
 * Service API's `{ error: { reason, details } }`; either becomes one readable sentence.
 */
export class RestError extends Error {
  readonly status: number;
  readonly display: DisplayError;
  constructor(status: number, display: DisplayError) {
    super(display.message);
    this.name = 'RestError';
    this.status = status;
    this.display = display;
  }
}

interface SpecBody {
  code?: string;
  reason?: string;
  message?: string;
  issues?: FieldIssue[];
  error?: { reason?: string; details?: string };
}

const byStatus: Record<number, string> = {
  400: 'The request was not accepted.',
  401: 'Your session has ended. Please sign in again.',
  403: 'You are not allowed to do this.',
  404: 'Not found.',
  409: 'This conflicts with the current state.',
  413: 'The file is too large.',
  415: 'This type of file is not allowed.',
  429: 'Too many requests. Please wait a minute and try again.',
  502: 'The IPFS providers failed. Please try again later.',
  503: 'The service is unavailable right now. Please try again later.',
  504: 'The IPFS providers timed out. Please try again later.',
};

/** Wording that tells a person what to do, for the reasons a Files or Account page meets. */
const byReason: Record<string, string> = {
  WALLET_REQUIRED:
    'Storing files needs a linked wallet: pins are recorded for your wallet address. Link one on your Account page first.',
  EMAIL_NOT_VERIFIED: 'Verify your email address first: storing files needs a verified account.',
  NOT_SIGNED_IN: 'Sign in first.',
};

const looksLikeJson = (s: string) => /^\s*[[{<]/.test(s);

export function restError(status: number, body: unknown): RestError {
  const b = (body && typeof body === 'object' ? body : {}) as SpecBody;
  const reason = b.reason ?? b.error?.reason;
  const serverMessage = b.message ?? b.error?.details;
  let message =
    (reason && byReason[reason]) ||
    (serverMessage && !looksLikeJson(serverMessage) ? serverMessage : undefined) ||
    byStatus[status] ||
    `The request failed (HTTP ${status}).`;
  if (status === 429) message = byStatus[429] as string;
  const fields: Record<string, string[]> = {};
  for (const issue of b.issues ?? []) {
    const key = issue.path || '';
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  const issues = b.issues?.length ? { issues: b.issues } : {};
  return new RestError(status, { message, ...(reason ? { reason } : {}), fields, ...issues });
}

export const networkError = (message = 'The server could not be reached. Check your connection.') =>
  new RestError(0, { message, fields: {} });

/** JSON from a REST path of the API with the session's Bearer token; failures throw RestError. */
export async function restJson<T>(url: string, token: string | null, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers });
  } catch {
    throw networkError();
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) throw restError(res.status, body);
  return body as T;
}
