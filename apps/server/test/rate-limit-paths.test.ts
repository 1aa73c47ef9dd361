import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetMailCount } from './support/accounts';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, uniqueEmail } from './support/factories';
import { apiClient } from './support/http';

/**
 * The auth budget follows the route the router takes, not the spelling of the path (docs/api.md, "Rate
 * limits"): REST paths match case-insensitively with a trailing slash ignored, tRPC decodes its path, so
 * /AUTH/LOGIN, /auth/login/ and /trpc/auth%2Elogin all reach the sign-in and all spend its budget.
 */
const AUTH_BUDGET = 20;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: {
      RATE_LIMIT_DISABLED: 'false',
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_BUDGET),
      RATE_LIMIT_PER_MINUTE: '1000',
      TRUST_PROXY: 'true',
    },
  });
});
afterAll(() => t.close());

let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

describe('the auth budget whatever the path spelling', () => {
  it.each(['/AUTH/LOGIN', '/Auth/login', '/auth/login/', '/trpc/auth%2Elogin', '/trpc/auth.login/'])(
    '%s: 23 sign-ins give 429 after the budget',
    async (path) => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 23; i++) {
        const res = await fetch(t.url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          // a new email each time: the per-account throttle stays out of the way
          body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'Nope-nope-1' }),
        });
        statuses.push(res.status);
        if (res.status === 429) expect(await res.text()).toContain('RATE_LIMITED');
      }
      // every one reached the sign-in (401) until the budget ran out
      expect(statuses.slice(0, AUTH_BUDGET)).toEqual(Array(AUTH_BUDGET).fill(401));
      expect(statuses.slice(AUTH_BUDGET)).toEqual([429, 429, 429]);
    },
  );

  it('spellings the routers do not resolve answer 404: nothing reaches the sign-in uncounted', async () => {
    for (const path of ['//auth/login', '/auth/%6Cogin', '/auth/login//', '/trpc/AUTH.LOGIN']) {
      const res = await fetch(t.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
        body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'Nope-nope-1' }),
      });
      expect(res.status, path).toBe(404);
    }
  });

  it('/AUTH/PASSWORD-RESET × 30 queues at most the budget’s mails', async () => {
    const api = apiClient(t.url);
    const user = await activeUser(api);
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await api.post(
        '/AUTH/PASSWORD-RESET',
        { email: user.email },
        { headers: { 'x-forwarded-for': ip } },
      );
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 202).length).toBe(AUTH_BUDGET);
    expect(statuses.filter((s) => s === 429).length).toBe(30 - AUTH_BUDGET);
    expect(await resetMailCount(api, user.email)).toBeLessThanOrEqual(AUTH_BUDGET);
  });
});
