import { QueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';

/** attempts after the first before a query shows its error (it keeps polling afterwards, see below) */
export const MAX_RETRIES = 3;
/** while a query is failing for a transient reason, it is fetched again this often, until it succeeds */
export const ERROR_POLL_MS = 5_000;

/**
 * A failure that may go away by itself: the server could not be reached, answered 5xx, 408 or 429.
 * A 4xx answer (not found, forbidden, invalid input) does not change by asking again.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
    if (status === undefined) return !error.shape;
    return status >= 500 || status === 408 || status === 429;
  }
  // fetch's own network failure
  return error instanceof TypeError;
}

/** 1 s, 2 s, 4 s, … capped at 30 s. */
export const retryDelay = (attempt: number) => Math.min(1_000 * 2 ** attempt, 30_000);

export const shouldRetry = (failureCount: number, error: unknown) =>
  failureCount < MAX_RETRIES && isTransient(error);

/** what the polling below reads of a query (any query's data and error types) */
type Polled = { state: { status: string; error: unknown } };

/** Poll a query that ended in a transient error, so a page recovers once the API is back. */
export const errorPollInterval = (query: Polled) =>
  query.state.status === 'error' && isTransient(query.state.error) ? ERROR_POLL_MS : false;

/**
 * A query's own `refetchInterval` (polling while the live stream is down, or none) replaces the default
 * above, error polling included: wrap it, so that a page whose stream is up (signed in, only HTTP down)
 * still reads again by itself after an outage instead of waiting for an event that may never come.
 */
export const pollOrRecover =
  <Q extends Polled>(interval: number | false | ((query: Q) => number | false)) =>
  (query: Q): number | false =>
    errorPollInterval(query) || (typeof interval === 'function' ? interval(query) : interval);

/**
 * The app's QueryClient: queries retry transient failures with capped exponential backoff, refetch on
 * reconnect and window focus, and keep trying every few seconds while in such an error. Mutations never
 * retry by themselves: a vote or an upload is sent again only when the person asks.
 */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: shouldRetry,
        retryDelay,
        refetchOnReconnect: true,
        refetchOnWindowFocus: true,
        refetchInterval: errorPollInterval,
      },
      mutations: { retry: false },
    },
  });
}
