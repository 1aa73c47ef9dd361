import type { AppRouter } from '@plenum/api';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { apiClient } from './support/http';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_PER_MINUTE: '8' },
  });
});
afterAll(() => t.close());

describe('rate limiting', () => {
  it('limits sign-in attempts per IP with 429, Retry-After and RateLimit headers', async () => {
    const api = apiClient(t.url);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof api.post>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await api.post('/auth/login', { email: 'x@example.org', password: 'Nope-nope-1' });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(last!.body).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit-limit')).toBe('3');
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('limits every other path per IP too', async () => {
    const api = apiClient(t.url);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api.get('/auth/nonce')).status);
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(8);
  });

  it('shares one budget between two instances on one database', async () => {
    if (!t.databaseUrl) return; // PGlite is one process: nothing to share
    const second = await startTestApp({
      databaseUrl: t.databaseUrl,
      env: { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_PER_MINUTE: '8' },
    });
    try {
      const res = await apiClient(second.url).post('/auth/login', {
        email: 'x@example.org',
        password: 'Nope-nope-1',
      });
      expect(res.status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('rate limiting of the tRPC paths the web app uses', () => {
  it('applies the sign-in budget to auth.login over tRPC, with an error the tRPC client can read', async () => {
    const app = await startTestApp({
      env: { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_PER_MINUTE: '100' },
    });
    try {
      for (const link of [httpBatchLink, httpLink]) {
        const client = createTRPCClient<AppRouter>({ links: [link({ url: `${app.url}/trpc` })] });
        const outcomes: { httpStatus?: number; reason?: string }[] = [];
        for (let i = 0; i < 2; i++) {
          try {
            await client.auth.login.mutate({ email: 'x@example.org', password: 'Nope-nope-1' });
          } catch (err) {
            expect(err).toBeInstanceOf(TRPCClientError);
            outcomes.push(
              (err as TRPCClientError<AppRouter>).data as { httpStatus?: number; reason?: string },
            );
          }
        }
        // the budget of 3 is shared by both links: 2 × 401 with the first, 1 × 401 then 429 with the second
        if (link === httpBatchLink) expect(outcomes.map((o) => o.httpStatus)).toEqual([401, 401]);
        else {
          expect(outcomes.map((o) => o.httpStatus)).toEqual([401, 429]);
          expect(outcomes[1]!.reason).toBe('RATE_LIMITED');
        }
      }
      const batched = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc` })] });
      const err = await batched.registration.resendVerification
        .mutate({ email: 'x@example.org' })
        .catch((e: unknown) => e as TRPCClientError<AppRouter>);
      expect(((err as TRPCClientError<AppRouter>).data as { httpStatus?: number }).httpStatus).toBe(429);
    } finally {
      await app.close();
    }
  });
});
