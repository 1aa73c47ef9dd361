import { describe, expect, it } from 'vitest';
import { isTransient, makeQueryClient, retryDelay, shouldRetry } from './query-client';
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
});
