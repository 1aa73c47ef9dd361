import { describe, expect, it } from 'vitest';
import { combineQueries } from './combine-queries';
import { isTransient, makeQueryClient, pollOrRecover, retryDelay, shouldRetry } from './query-client';
import { serverError as trpcError, unreachable } from './test-support/trpc-error';

describe('resilient queries', () => {
  it('treats an unreachable server, 5xx, 408 and 429 as transient and other answers as final', () => {
    expect(isTransient(unreachable())).toBe(true);
    expect(isTransient(new TypeError('Failed to fetch'))).toBe(true);
    expect(isTransient(trpcError({ httpStatus: 503 }))).toBe(true);
    expect(isTransient(trpcError({ httpStatus: 429 }))).toBe(true);
    expect(isTransient(trpcError({ httpStatus: 404 }))).toBe(false);
    expect(isTransient(trpcError({ httpStatus: 401 }))).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
  });

  it('retries transient failures a few times with capped exponential backoff', () => {
    const down = unreachable();
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, down))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, trpcError({ httpStatus: 403 }))).toBe(false);
    expect([0, 1, 2, 3, 10].map(retryDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 30_000]);
  });

  it('polls a query while it fails transiently, not otherwise; mutations never retry', async () => {
    const client = makeQueryClient();
    const defaults = client.getDefaultOptions();
    expect(defaults.mutations?.retry).toBe(false);
    expect(defaults.queries?.refetchOnReconnect).toBe(true);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(true);

    const poll = defaults.queries?.refetchInterval as (q: unknown) => number | false;
    const failing = (error: unknown) => ({ state: { status: 'error', error } });
    expect(poll(failing(unreachable()))).toBeGreaterThan(0);
    expect(poll(failing(trpcError({ httpStatus: 404 })))).toBe(false);
    expect(poll({ state: { status: 'success', error: null } })).toBe(false);
  });

  it('keeps polling a failed query whose own interval is off (the live stream is up), and its own interval otherwise', () => {
    const failing = { state: { status: 'error', error: unreachable() } };
    const fine = { state: { status: 'success', error: null } };
    expect(pollOrRecover(false)(failing)).toBeGreaterThan(0);
    expect(pollOrRecover(false)(fine)).toBe(false);
    expect(pollOrRecover(3_000)(fine)).toBe(3_000);
    expect(pollOrRecover(() => 2_000)(fine)).toBe(2_000);
    expect(pollOrRecover(false)({ state: { status: 'error', error: trpcError({ httpStatus: 404 }) } })).toBe(
      false,
    );
  });

  it('has data for several reads only once each has some, so a failed one is never an empty list', () => {
    const q = (data: unknown, error: unknown = null) => ({
      data,
      error,
      isError: error !== null,
      isFetching: false,
      refetch: () => undefined,
    });
    expect(combineQueries([q([1]), q([2])]).data).toHaveLength(2);
    const partly = combineQueries([q([1]), q(undefined, unreachable())]);
    expect(partly.data).toBeUndefined();
    expect(partly.isError).toBe(true);
    expect(combineQueries([q([1]), q(undefined)]).data).toBeUndefined();
    expect(combineQueries([]).data).toEqual([]);
  });
});
