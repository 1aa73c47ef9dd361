import type { DisplayError } from '../errors';
import { governanceError } from './errors';

/**
 * The steps of casting a vote after the ballot is filled in (docs/governance.md, "Signed votes"):
 * confirm → wallet (when the browser wallet signs) → sending → done, or a failure that says which
 * step failed, each with a retry.
 */
export type VoteStep =
  | { kind: 'confirm' }
  | { kind: 'wallet' }
  | { kind: 'sending' }
  | { kind: 'failed'; failure: VoteFailure };

export type VoteFailure =
  | { kind: 'rejected' }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'refused'; error: DisplayError }
  | { kind: 'other'; error: DisplayError };

/** how long the wallet may take to sign before the wait is given up (it can be retried) */
export const WALLET_TIMEOUT_MS = 120_000;

export class WalletTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`The wallet did not answer within ${Math.round(ms / 1000)} seconds.`);
    this.name = 'WalletTimeoutError';
  }
}

/** `work`, or a WalletTimeoutError once `ms` have passed without an answer. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new WalletTimeoutError(ms)), ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

const rejectedInWallet = (err: unknown): boolean => {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: number; cause?: unknown };
  if (e.name === 'UserRejectedRequestError' || e.code === 4001) return true;
  return e.cause !== undefined && e.cause !== err && rejectedInWallet(e.cause);
};

const fromServer = (err: unknown) =>
  !!err &&
  typeof err === 'object' &&
  'data' in err &&
  typeof (err as { data?: { httpStatus?: unknown } }).data?.httpStatus === 'number';

/** A thrown value of the vote flow as the failure the vote box shows. */
export function voteFailure(err: unknown): VoteFailure {
  if (err instanceof WalletTimeoutError) return { kind: 'timeout', seconds: Math.round(err.ms / 1000) };
  if (rejectedInWallet(err)) return { kind: 'rejected' };
  const error = governanceError(err);
  return fromServer(err) ? { kind: 'refused', error } : { kind: 'other', error };
}
