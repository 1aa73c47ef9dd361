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
