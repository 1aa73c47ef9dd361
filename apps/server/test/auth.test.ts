import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import {
  activeUser,
  login,
  PASSWORD,
  register,
  uniqueEmail,
  verificationTokenFor,
} from './support/factories';
import { type ApiClient, apiClient } from './support/http';

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: 'boss@example.org' } });
  api = apiClient(t.url);
});
afterAll(() => t.close());

describe('registration', () => {
  it('creates a pending user with the documented fields and no secrets', async () => {
    const email = uniqueEmail();
    const res = await register(api, { email: `  ${email.toUpperCase()} `, organizationName: 'Guild' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email,
      status: 'pending_verification',
      emailVerified: false,
      role: 'user',
      organizationName: 'Guild',
    });
    expect(res.body.termsAcceptedAt).toMatch(/Z$/);
    expect(res.text).not.toMatch(/password|hash/i);
  });

  it('refuses unaccepted terms, a weak password (naming every rule), unknown fields and a duplicate email', async () => {
    const terms = await register(api, { acceptedTerms: false });
    expect(terms.status).toBe(400);
    expect(terms.body.issues[0].path).toBe('acceptedTerms');

    const weak = await register(api, { password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('BAD_REQUEST');
    const rules = weak.body.issues.map((i: { code: string }) => i.code).sort();
    expect(rules).toEqual(['minLength', 'requireNumbers', 'requireUppercase']);

    const mass = await register(api, { role: 'admin', status: 'active' });
    expect(mass.status).toBe(400);

    const email = uniqueEmail();
    expect((await register(api, { email })).status).toBe(201);
    const dup = await register(api, { email: email.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
  });

  it('lets exactly one of two simultaneous registrations of one email through', async () => {
    const email = uniqueEmail();
    const [a, b] = await Promise.all([register(api, { email }), register(api, { email })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
  });

  it('bootstraps ADMIN_EMAILS as admins', async () => {
    const res = await register(api, { email: 'Boss@Example.org' });
    expect(res.body.role).toBe('admin');
  });
});

describe('email verification', () => {
  it('activates with the mailed token, then answers "already verified" and changes nothing', async () => {
    const email = uniqueEmail();
    await register(api, { email });
    const token = await verificationTokenFor(api, email);
    const first = await api.post('/users/verify-email', { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ email, status: 'active', emailVerified: true });
    const again = await api.post('/users/verify-email', { token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'active', emailVerified: true, message: 'already verified' });
  });

  it('refuses unknown and expired tokens with 400', async () => {
    expect((await api.post('/users/verify-email', { token: 'nope' })).status).toBe(400);
    const short = await startTestApp({ env: { VERIFICATION_TOKEN_EXPIRY: '1ms' } });
    try {
      const a = apiClient(short.url);
      const email = uniqueEmail();
      await register(a, { email });
      const token = await verificationTokenFor(a, email);
      await new Promise((r) => setTimeout(r, 10));
      const res = await a.post('/users/verify-email', { token });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('INVALID_TOKEN');
    } finally {
      await short.close();
    }
  });

  it('resend-verification is 202 for known, unknown and verified addresses alike', async () => {
    const email = uniqueEmail();
    await register(api, { email });
    const known = await api.post('/users/resend-verification', { email });
    const unknown = await api.post('/users/resend-verification', { email: uniqueEmail() });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
  });
});

describe('sign-in and sessions', () => {
  it('answers a wrong password and an unknown email identically', async () => {
    const user = await activeUser(api);
    const wrong = await api.post('/auth/login', { email: user.email, password: 'Wrong-pass-1' });
    const unknown = await api.post('/auth/login', { email: uniqueEmail(), password: 'Wrong-pass-1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('serves /auth/me by bearer token and by cookie, and logout ends the session', async () => {
    const user = await activeUser(api);
    const me = await api.get('/auth/me', { token: user.token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(user.email);
    expect(me.text).not.toContain('passwordHash');

    const res = await fetch(`${t.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/plenum_session=.+HttpOnly; SameSite=Lax/);
    const byCookie = await api.get('/auth/me', { headers: { cookie: cookie.split(';')[0]! } });
    expect(byCookie.status).toBe(200);

    const out = await api.post('/auth/logout', undefined, { token: user.token });
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    expect((await api.get('/auth/me', { token: user.token })).status).toBe(401);
  });

  it('lets a pending user sign in and read their account', async () => {
    const email = uniqueEmail();
    await register(api, { email });
    const token = await login(api, email);
    const me = await api.get('/auth/me', { token });
    expect(me.body.user.status).toBe('pending_verification');
  });

  it('refuses missing and garbage credentials with 401', async () => {
    expect((await api.get('/auth/me')).status).toBe(401);
    const bad = await api.get('/auth/me', { token: 'garbage' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('terms of use (TERMS_URL)', () => {
  const info = async (client: ApiClient) =>
    (await client.get('/trpc/system.info')).body.result.data as { termsUrl: string | null };

  it('with TERMS_URL: system.info names it, registration requires and records the acceptance', async () => {
    expect((await info(api)).termsUrl).toBe('https://example.org/terms');
    expect((await register(api, { acceptedTerms: false })).status).toBe(400);
    const ok = await register(api);
    expect(ok.status).toBe(201);
    expect(ok.body.termsAcceptedAt).toMatch(/Z$/);
  });

  it('without TERMS_URL: nothing to accept, so nothing is required or recorded', async () => {
    const plain = await startTestApp({ env: { TERMS_URL: '' } });
    try {
      const client = apiClient(plain.url);
      expect((await info(client)).termsUrl).toBeNull();
      for (const acceptedTerms of [false, true]) {
        const res = await register(client, { acceptedTerms });
        expect(res.status).toBe(201);
        expect(res.body.termsAcceptedAt).toBeNull();
      }
      // still a JSON boolean: the API's shape does not depend on the configuration
      expect((await register(client, { acceptedTerms: 'true' })).status).toBe(400);
    } finally {
      await plain.close();
    }
  });
});
