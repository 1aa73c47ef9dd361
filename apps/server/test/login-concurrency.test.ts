import { ManualClock } from '@plenum/core';
import { loginThrottle } from '@plenum/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, PASSWORD, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * The sign-in throttle under concurrency and batching (docs/accounts.md, "Password guessing"; docs/api.md,
 * "Rate limits"): the check and the count are one statement, so attempts sent all at once from many IPs
 * get no more password checks than one after the other; a tRPC batch cannot carry a sign-in or password
 * call, and every call of a batch spends the budgets; one client's flood of password checks does not
 * hold the others up. Every answer is counted; nothing here depends on timing.
 */
const FREE = 5; // LOGIN_FAILURES_BEFORE_BACKOFF
// time stands still: no lock runs out while the attempts are answered (each window would allow one more)
const clock = new ManualClock();
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: { TRUST_PROXY: 'true', LOGIN_FAILURES_BEFORE_BACKOFF: String(FREE) },
  });
  api = apiClient(t.url);
});
afterAll(() => t.close());

let ipSeq = 0;
const freshIp = () => `203.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const login = (email: string, password: string, ip = freshIp()) =>
  api.post('/auth/login', { email, password }, { headers: { 'x-forwarded-for': ip } });
const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};
const throttleRows = async () => (await t.app.svc.db.select().from(loginThrottle)).length;

/** 29 wrong passwords and the right one, all at once, each from its own IP; the right one last */
const thirtyAtOnce = (email: string) =>
  Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      login(email, i === 29 ? PASSWORD : `Wrong-pass-${i}`).then((r) => r.status),
    ),
  );

describe('the sign-in throttle under concurrency', () => {
  it('checks at most the free failures + 1 of 30 parallel sign-ins from 30 IPs', async () => {
    const user = await activeUser(api);
    const statuses = await thirtyAtOnce(user.email);
    const checked = statuses.filter((s) => s !== 429).length;
    expect(checked, JSON.stringify(tally(statuses))).toBeLessThanOrEqual(FREE + 1);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(FREE + 1);
  });

  it('once the free failures are used, 30 at once get one guess between them', async () => {
    const user = await activeUser(api);
    for (let i = 0; i < FREE; i++) expect((await login(user.email, 'Wrong-pass-x')).status).toBe(401);
    const statuses = await thirtyAtOnce(user.email);
    // one password checked at most; the other 29 refused unchecked (before: 29 × 401 and a 200)
    expect(statuses.filter((s) => s !== 429).length, JSON.stringify(tally(statuses))).toBeLessThanOrEqual(1);
  });

  it('counts 30 parallel password changes with a stolen session the same way', async () => {
    const user = await activeUser(api);
    const change = (currentPassword: string) =>
      api
        .post(
          '/auth/password',
          { currentPassword, newPassword: 'Brand-New-Pass-8' },
          { token: user.token, headers: { 'x-forwarded-for': freshIp() } },
        )
        .then((r) => r.status);
    for (let i = 0; i < FREE; i++) expect(await change('Wrong-pass-x')).toBe(400);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => change(i === 29 ? PASSWORD : `Wrong-pass-${i}`)),
    );
    expect(statuses.filter((s) => s !== 429).length, JSON.stringify(tally(statuses))).toBeLessThanOrEqual(1);
  });
});

describe('tRPC batches', () => {
  const batch = (procedure: string, n: number, input: unknown, token?: string) =>
    fetch(`${t.url}/trpc/${Array(n).fill(procedure).join(',')}?batch=1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': freshIp(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, input]))),
    });

  it('refuses 200 auth.login calls in one batch without checking a password', async () => {
    const user = await activeUser(api);
    const before = await throttleRows();
    for (const n of [200, 2]) {
      const res = await batch('auth.login', n, { email: user.email, password: 'Wrong-pass-1' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { data: { reason: string } } }[];
      expect(body[0]!.error.data.reason).toBe(n > 20 ? 'BATCH_TOO_LARGE' : 'BATCH_NOT_ALLOWED');
    }
    // a mixed batch is refused too
    const mixed = await fetch(`${t.url}/trpc/system.info,auth.login?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ 1: { email: user.email, password: PASSWORD } }),
    });
    expect(mixed.status).toBe(400);
    // no attempt was counted: no password was checked
    expect(await throttleRows()).toBe(before);
  });

  it('refuses 30 auth.changePassword calls in one batch: the password stays', async () => {
    const user = await activeUser(api);
    const res = await batch(
      'auth.changePassword',
      15,
      { currentPassword: PASSWORD, newPassword: 'Brand-New-Pass-9' },
      user.token,
    );
    expect(res.status).toBe(400);
    const thirty = await batch(
      'auth.changePassword',
      30,
      { currentPassword: PASSWORD, newPassword: 'Brand-New-Pass-9' },
      user.token,
    );
    expect(thirty.status).toBe(400);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it('lets a batch of ordinary queries through, up to TRPC_MAX_BATCH', async () => {
    expect((await fetch(`${t.url}/trpc/${Array(20).fill('system.info').join(',')}?batch=1`)).status).toBe(
      200,
    );
    expect((await fetch(`${t.url}/trpc/${Array(21).fill('system.info').join(',')}?batch=1`)).status).toBe(
      400,
    );
  });

  it('spends one point of every budget per call of a batch', async () => {
    const limited = await startTestApp({
      env: { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_PER_MINUTE: '30' },
    });
    try {
      const get = () => fetch(`${limited.url}/trpc/${Array(20).fill('system.info').join(',')}?batch=1`);
      expect((await get()).status).toBe(200);
      // 20 + 20 calls > 30: refused (before: two requests, two points)
      expect((await get()).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('password checks per client', () => {
  it('a flood of sign-ins from one IP does not keep another client from signing in', async () => {
    const bystander = await activeUser(api);
    const flooder = freshIp();
    const flood = Array.from({ length: 60 }, () => login(uniqueEmail('flood'), 'Wrong-pass-1', flooder));
    const answer = await login(bystander.email, PASSWORD);
    const statuses = (await Promise.all(flood)).map((r) => r.status);
    expect(answer.status).toBe(200);
    // the flood got at most its share of the checks; the rest was refused at once
    const busy = statuses.filter((s) => s === 429).length;
    expect(busy, JSON.stringify(tally(statuses))).toBeGreaterThan(0);
    expect(busy + statuses.filter((s) => s === 401).length).toBe(60);
  });
});
