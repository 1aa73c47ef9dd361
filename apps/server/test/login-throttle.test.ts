import { ManualClock } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetMailFor } from './support/accounts';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, PASSWORD, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * Password guessing is limited per account, not only per IP (docs/accounts.md, "Password guessing"):
 * after 5 free failures each wrong password locks the email for twice as long (1 s, 2 s, … up to
 * 15 min); a locked email is refused before any password is checked, from any IP, known or unknown
 * alike; a password reset lifts the lock at once. Time is a manual clock: nothing here sleeps.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock();

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const attempt = (email: string, password: string, ip = '203.0.113.7') =>
  api.post('/auth/login', { email, password }, { headers: { 'x-forwarded-for': ip } });

describe('per-account sign-in throttle', () => {
  it('locks an account with a growing, capped backoff that a fresh IP cannot skip', async () => {
    const user = await activeUser(api);
    for (let i = 1; i <= 6; i++)
      expect((await attempt(user.email, 'Wrong-pass-1')).status, `failure ${i}`).toBe(401);

    // the 6th failure locked it for 1 s: the right password from anywhere is refused, unchecked
    const locked = await attempt(user.email, PASSWORD, '198.51.100.99');
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'LOGIN_THROTTLED' });
    expect(locked.headers.get('retry-after')).toBe('1');

    // attempts while locked do not extend it; the next failure doubles it
    clock.advance(1_001);
    expect((await attempt(user.email, 'Wrong-pass-1')).status).toBe(401);
    expect((await attempt(user.email, PASSWORD)).headers.get('retry-after')).toBe('2');
    clock.advance(2_001);
    expect((await attempt(user.email, PASSWORD)).status).toBe(200);

    // a success forgets the failures: five free ones again
    for (let i = 1; i <= 5; i++) expect((await attempt(user.email, 'Wrong-pass-1')).status).toBe(401);
    expect((await attempt(user.email, PASSWORD)).status).toBe(200);
  });

  it('after 30 wrong passwords the right one does not sign in at once; the lock never exceeds 15 min', async () => {
    const user = await activeUser(api);
    for (let i = 1; i <= 30; i++) {
      clock.advance(15 * 60_000 + 1); // each guess waits out the previous lock
      expect((await attempt(user.email, 'Wrong-pass-1')).status).toBe(401);
    }
    const res = await attempt(user.email, PASSWORD, '192.0.2.200');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBe(15 * 60);
    clock.advance(15 * 60_000 + 1);
    expect((await attempt(user.email, PASSWORD)).status).toBe(200);
  });

  it('throttles an unknown email exactly like a known one (no enumeration)', async () => {
    const known = await activeUser(api);
    const unknown = uniqueEmail('nobody');
    const answers = [];
    for (const email of [known.email, unknown]) {
      for (let i = 0; i < 6; i++) await attempt(email, 'Wrong-pass-1');
      const res = await attempt(email, 'Wrong-pass-1');
      answers.push({ status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') });
    }
    expect(answers[0]!.status).toBe(429);
    expect(answers[1]).toEqual(answers[0]);
  });

  it('a password reset lifts the lock at once (proof of the mailbox)', async () => {
    const user = await activeUser(api);
    for (let i = 0; i < 12; i++) await attempt(user.email, 'Wrong-pass-1');
    expect((await attempt(user.email, PASSWORD)).status).toBe(429);
    expect((await api.post('/auth/password-reset', { email: user.email })).status).toBe(202);
    const { token } = await resetMailFor(api, user.email);
    const newPassword = 'Another-Horse-10';
    const confirm = await api.post('/auth/password-reset/confirm', { token, newPassword });
    expect(confirm.status, confirm.text).toBe(200);
    expect((await attempt(user.email, newPassword)).status).toBe(200);
  });

  it('applies to the current-password check of a password change (a stolen session is no oracle)', async () => {
    const user = await activeUser(api);
    const change = (currentPassword: string) =>
      api.post('/auth/password', { currentPassword, newPassword: 'Another-Horse-11' }, { token: user.token });
    for (let i = 0; i < 6; i++) expect((await change('Wrong-pass-1')).status).toBe(400);
    const res = await change(PASSWORD);
    expect(res.status).toBe(429);
    expect(res.body.reason).toBe('LOGIN_THROTTLED');
    clock.advance(1_001);
    expect((await change(PASSWORD)).status).toBe(200);
  });

  it('applies to the tRPC procedure the web app calls, in tRPC error shape with Retry-After', async () => {
    const user = await activeUser(api);
    for (let i = 0; i < 6; i++) await attempt(user.email, 'Wrong-pass-1');
    const res = await fetch(`${t.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await res.json()).error.data).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      reason: 'LOGIN_THROTTLED',
    });
  });
});
