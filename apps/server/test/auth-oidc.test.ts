import { accountEvents, oidcStates, sessions, userIdentities, users } from '@plenum/db';
import { and, eq, like } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMailFor } from './support/accounts';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { HttpBrowser } from './support/browser-http';
import { activeUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { startIdp, type TestIdp } from './support/oidc-provider';
import { freePort } from './support/server-process';

/**
 * OpenID Connect sign-in (docs/accounts.md, "Signing in with OpenID Connect") against a real provider
 * (oidc-provider on loopback), the browser driven over plain HTTP: redirects followed, cookies carried.
 */
const APP = 'http://localhost:3000';
let t: TestApp;
let api: ApiClient;
let idp: TestIdp;

beforeAll(async () => {
  idp = await startIdp();
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    port,
    env: {
      API_URL: apiUrl,
      OIDC_PROVIDERS: JSON.stringify([
        {
          id: 'idp',
          name: 'Test ID',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
        },
        // nothing listens on port 9: a provider that is down
        { id: 'down', name: 'Down', issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y' },
      ]),
    },
  });
  idp.configure([`${apiUrl}/auth/oidc/idp/callback`]);
  api = apiClient(t.url);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const browser = () => new HttpBrowser([]);
let subs = 0;
/** an account at the provider */
function person(claims: { email?: string; email_verified?: boolean } = {}) {
  const sub = `sub-${++subs}-${Math.random().toString(36).slice(2, 8)}`;
  const account = {
    sub,
    email: uniqueEmail('oidc'),
    email_verified: true,
    given_name: 'Grace',
    family_name: 'Hopper',
    ...claims,
  };
  idp.accounts.set(sub, account);
  return account;
}

/** from the start to the provider's redirect back: answers the callback URL, not yet opened */
async function toCallback(b: HttpBrowser, sub: string, query = '', headers: Record<string, string> = {}) {
  idp.next = sub;
  b.follow.splice(0, b.follow.length, idp.issuer);
  const nav = await b.navigate(`${t.url}/auth/oidc/idp/start${query}`, headers);
  expect(nav.stoppedAt.startsWith(`${t.url}/auth/oidc/idp/callback?`), nav.stoppedAt).toBe(true);
  return nav.stoppedAt;
}

/** the handoff of the last signed-in landing (its `#session=` fragment, taken off what finish answers) */
let lastHandoff = '';

/** the callback, opened by this browser: where the app sends it */
async function finish(b: HttpBrowser, callbackUrl: string) {
  const res = await b.get(callbackUrl);
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  const [place, fragment] = location.split('#session=');
  if (fragment !== undefined) lastHandoff = decodeURIComponent(fragment);
  return place!;
}

const signIn = async (b: HttpBrowser, sub: string, query = '') => finish(b, await toCallback(b, sub, query));

const me = (b: HttpBrowser) =>
  api.get('/auth/me', { headers: { cookie: `plenum_session=${b.cookies.get('plenum_session') ?? ''}` } });
const userByEmail = async (email: string) =>
  (await t.app.svc.db.select().from(users).where(eq(users.email, email)))[0];
const identitiesOf = (userId: string) =>
  t.app.svc.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));
const tally = (xs: (string | number)[]) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
};

describe('providers and start', () => {
  it('lists the configured providers (public)', async () => {
    const res = await api.get('/auth/oidc/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 'idp', name: 'Test ID' },
      { id: 'down', name: 'Down' },
    ]);
  });

  it('redirects to the provider with PKCE S256, state and nonce, and binds the flow to the browser', async () => {
    const b = browser();
    const res = await b.get(`${t.url}/auth/oidc/idp/start?returnTo=/daos`);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['code_challenge', 'state', 'nonce']) expect(to.searchParams.get(p)).toBeTruthy();
    expect(to.searchParams.get('redirect_uri')).toBe(`${t.url}/auth/oidc/idp/callback`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('plenum_oidc='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/auth\/oidc/);
    // stored server-side by hashes only: neither the state nor the cookie's value is in the row
    const rows = await t.app.svc.db.select().from(oidcStates);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(to.searchParams.get('state')!);
    expect(text).not.toContain(b.cookies.get('plenum_oidc')!);
  });

  it('answers 404 for an unknown provider, on start and callback', async () => {
    expect((await api.get('/auth/oidc/nope/start')).status).toBe(404);
    const cb = await api.get('/auth/oidc/nope/callback?code=x&state=y');
    expect(cb.status).toBe(404);
    expect(cb.body.code).toBe('NOT_FOUND');
  });

  it('refuses a returnTo that leaves the app (400, no redirect)', async () => {
    for (const bad of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'dashboard',
    ]) {
      const res = await browser().get(`${t.url}/auth/oidc/idp/start?returnTo=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.headers.get('location'), bad).toBeNull();
    }
  });

  it('sends the person back with OIDC_PROVIDER_UNAVAILABLE when the provider cannot be reached', async () => {
    const res = await browser().get(`${t.url}/auth/oidc/down/start`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${APP}/sign-in?error=OIDC_PROVIDER_UNAVAILABLE`);
  });
});

describe('callback: accounts', () => {
  it('creates an active account for a verified email, signs it in and returns to returnTo', async () => {
    const p = person();
    const b = browser();
    const location = await signIn(b, p.sub, '?returnTo=%2Fdaos%3Ftab%3Dmine');
    expect(location).toBe(`${APP}/daos?tab=mine`);
    expect(b.cookies.has('plenum_oidc')).toBe(false);
    const who = await me(b);
    expect(who.status).toBe(200);
    expect(who.body.user).toMatchObject({
      email: p.email,
      status: 'active',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(who.body.hasPassword).toBe(false);
    const list = await api.get('/auth/identities', {
      headers: { cookie: `plenum_session=${b.cookies.get('plenum_session')}` },
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({ provider: 'idp', providerName: 'Test ID', email: p.email }),
    ]);
    // a client whose session is a Bearer token redeems the fragment's handoff (2 minutes)
    const redeemed = await api.post('/auth/oidc/handoff', { handoff: lastHandoff });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(redeemed.body.token).toBe(b.cookies.get('plenum_session'));
    expect(redeemed.body.user.email).toBe(p.email);
    const forged = await api.post('/auth/oidc/handoff', { handoff: `${lastHandoff.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(400);
    expect(forged.body.reason).toBe('OIDC_HANDOFF_INVALID');
    // the next sign-in finds the same account
    const again = browser();
    expect(await signIn(again, p.sub)).toBe(`${APP}/`);
    expect((await me(again)).body.user.id).toBe(who.body.user.id);
  });

  it('creates a pending account and mails our own verification for an unverified email; no session', async () => {
    const p = person({ email_verified: false });
    const b = browser();
    expect(await signIn(b, p.sub)).toBe(`${APP}/sign-in?oidc=verify-email`);
    expect(b.cookies.has('plenum_session')).toBe(false);
    const user = await userByEmail(p.email);
    expect(user).toMatchObject({ status: 'pending_verification', emailVerified: false });
    expect(await identitiesOf(user!.id)).toHaveLength(1);
    const mail = await linkMailFor(api, p.email, 'verify-email');
    expect((await api.post('/users/verify-email', { token: mail.token })).status).toBe(200);
    expect((await userByEmail(p.email))?.status).toBe('active');
  });

  it('never links an existing account silently: mails a confirmation, links once it is confirmed', async () => {
    const owner = await activeUser(api);
    const p = person({ email: owner.email });
    const b = browser();
    expect(await signIn(b, p.sub)).toBe(`${APP}/sign-in?oidc=check-email`);
    expect(b.cookies.has('plenum_session')).toBe(false);
    expect(await identitiesOf(owner.id)).toHaveLength(0);

    const mail = await linkMailFor(api, owner.email, 'link-identity');
    expect(mail.subject).toContain('Test ID');
    const confirmed = await api.post('/auth/oidc/link/confirm', { token: mail.token });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({ provider: 'idp', providerName: 'Test ID' });
    const replay = await api.post('/auth/oidc/link/confirm', { token: mail.token });
    expect(replay.status).toBe(400);
    expect(replay.body.reason).toBe('OIDC_LINK_INVALID');

    const next = browser();
    expect(await signIn(next, p.sub)).toBe(`${APP}/`);
    expect((await me(next)).body.user.id).toBe(owner.id);
  });

  it('the mailed confirmation opened many times at once links once', async () => {
    const owner = await activeUser(api);
    const p = person({ email: owner.email });
    await signIn(browser(), p.sub);
    const mail = await linkMailFor(api, owner.email, 'link-identity');
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/auth/oidc/link/confirm', { token: mail.token })),
    ).then((rs) => rs.map((r) => r.status));
    expect(tally(statuses)).toEqual({ 200: 1, 400: 9 });
    expect(await identitiesOf(owner.id)).toHaveLength(1);
  });

  it('an unverified email of an existing account gets no link, only a notice', async () => {
    const owner = await activeUser(api);
    const p = person({ email: owner.email, email_verified: false });
    expect(await signIn(browser(), p.sub)).toBe(`${APP}/sign-in?oidc=check-email`);
    const outbox = (await api.get('/dev/outbox')).body.items as {
      to: string;
      text: string;
      subject: string;
    }[];
    const mails = outbox.filter((m) => m.to === owner.email && m.subject.includes('Test ID'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).not.toContain('link-identity');
    expect(await identitiesOf(owner.id)).toHaveLength(0);
  });

  it('a suspended account is sent back with ACCOUNT_SUSPENDED', async () => {
    const p = person();
    await signIn(browser(), p.sub);
    await t.app.svc.db.update(users).set({ status: 'suspended' }).where(eq(users.email, p.email));
    const b = browser();
    expect(await signIn(b, p.sub)).toBe(`${APP}/sign-in?error=ACCOUNT_SUSPENDED`);
    expect(b.cookies.has('plenum_session')).toBe(false);
  });

  it('does not bypass a second factor: the sign-in page gets an mfaToken in the fragment, no session', async () => {
    const p = person();
    const first = browser();
    await signIn(first, p.sub);
    const token = first.cookies.get('plenum_session')!;
    const start = await api.post('/auth/mfa/totp', undefined, { token });
    const secret = Secret.fromBase32(start.body.secret as string);
    const code = (at: number) => TOTP.generate({ secret, timestamp: at });
    const confirm = await api.post('/auth/mfa/totp/confirm', { code: code(Date.now()) }, { token });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);

    const b = browser();
    const location = await signIn(b, p.sub, '?returnTo=/account');
    expect(b.cookies.has('plenum_session')).toBe(false);
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${APP}/sign-in`);
    expect(url.searchParams.get('next')).toBe('/account');
    const mfaToken = new URLSearchParams(url.hash.slice(1)).get('mfa')!;
    expect(mfaToken).toMatch(/^mfa_/);
    const done = await api.post('/auth/login/mfa', { mfaToken, code: code(Date.now() + 30_000) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.user.email).toBe(p.email);
  });
});

describe('callback: refusals write nothing', () => {
  const countUsers = async () => (await t.app.svc.db.select({ id: users.id }).from(users)).length;

  it('a wrong state → OIDC_STATE_INVALID', async () => {
    const p = person();
    const b = browser();
    const cb = new URL(await toCallback(b, p.sub));
    cb.searchParams.set('state', 'forged-state');
    const before = await countUsers();
    expect(await finish(b, cb.href)).toBe(`${APP}/sign-in?error=OIDC_STATE_INVALID`);
    expect(await countUsers()).toBe(before);
    expect(await userByEmail(p.email)).toBeUndefined();
  });

  it('a callback in another browser (no binding cookie) → OIDC_STATE_INVALID, and the right browser still finishes', async () => {
    const p = person();
    const b = browser();
    const cb = await toCallback(b, p.sub);
    const other = browser();
    expect(await finish(other, cb)).toBe(`${APP}/sign-in?error=OIDC_STATE_INVALID`);
    const forged = browser();
    forged.cookies.set('plenum_oidc', 'not-the-one');
    expect(await finish(forged, cb)).toBe(`${APP}/sign-in?error=OIDC_STATE_INVALID`);
    expect(await userByEmail(p.email)).toBeUndefined();
    expect(await finish(b, cb)).toBe(`${APP}/`);
  });

  it('a replayed callback (same code and state, same browser cookie) → OIDC_STATE_INVALID', async () => {
    const p = person();
    const b = browser();
    const cb = await toCallback(b, p.sub);
    const binding = b.cookies.get('plenum_oidc')!;
    expect(await finish(b, cb)).toBe(`${APP}/`);
    const replay = browser();
    replay.cookies.set('plenum_oidc', binding);
    expect(await finish(replay, cb)).toBe(`${APP}/sign-in?error=OIDC_STATE_INVALID`);
    expect(replay.cookies.has('plenum_session')).toBe(false);
  });

  it('an error from the provider (access_denied) → OIDC_PROVIDER_ERROR', async () => {
    const b = browser();
    const before = await countUsers();
    expect(await signIn(b, 'deny')).toBe(`${APP}/sign-in?error=OIDC_PROVIDER_ERROR`);
    expect(await countUsers()).toBe(before);
  });

  it('a code the provider refuses (forged) → OIDC_EXCHANGE_FAILED', async () => {
    const p = person();
    const b = browser();
    const cb = new URL(await toCallback(b, p.sub));
    cb.searchParams.set('code', 'forged-code');
    expect(await finish(b, cb.href)).toBe(`${APP}/sign-in?error=OIDC_EXCHANGE_FAILED`);
    expect(await userByEmail(p.email)).toBeUndefined();
  });

  it('a provider that stalls during the exchange: OIDC_PROVIDER_UNAVAILABLE after the bounded wait, not a hang', async () => {
    const p = person();
    const b = browser();
    const cb = await toCallback(b, p.sub);
    idp.stall = true;
    try {
      expect(await finish(b, cb)).toBe(`${APP}/sign-in?error=OIDC_PROVIDER_UNAVAILABLE`);
    } finally {
      idp.stall = false;
    }
    expect(await userByEmail(p.email)).toBeUndefined();
  }, 30_000);

  it('the same callback many times at once: one session', async () => {
    const p = person();
    const b = browser();
    const cb = await toCallback(b, p.sub);
    const binding = b.cookies.get('plenum_oidc')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const each = browser();
        each.cookies.set('plenum_oidc', binding);
        return finish(each, cb);
      }),
    );
    expect(tally(answers)).toEqual({ [`${APP}/`]: 1, [`${APP}/sign-in?error=OIDC_STATE_INVALID`]: 9 });
    const user = await userByEmail(p.email);
    expect(await t.app.svc.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(1);
  });
});

describe('linking to the signed-in account', () => {
  it('GET start?intent=link with the session cookie links, whatever the email', async () => {
    const owner = await activeUser(api);
    const p = person(); // another email than the account's
    const b = browser();
    b.cookies.set('plenum_session', owner.token);
    expect(await signIn(b, p.sub, '?intent=link')).toBe(`${APP}/account`);
    expect((await identitiesOf(owner.id)).map((i) => i.subject)).toEqual([p.sub]);
    expect(await userByEmail(p.email)).toBeUndefined();
  });

  it('intent=link without a session is sent to sign in', async () => {
    const res = await browser().get(`${t.url}/auth/oidc/idp/start?intent=link`);
    expect(res.headers.get('location')).toBe(`${APP}/sign-in?error=SIGN_IN_REQUIRED`);
  });

  it('POST /auth/oidc/{provider}/link (Bearer) answers the URL and binds the browser by its cookie', async () => {
    const owner = await activeUser(api);
    const p = person();
    const b = browser();
    const res = await fetch(`${t.url}/auth/oidc/idp/link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ returnTo: '/account?tab=security' }),
    });
    expect(res.status).toBe(200);
    b.store(res);
    const { url } = (await res.json()) as { url: string };
    expect(url.startsWith(idp.issuer)).toBe(true);
    idp.next = p.sub;
    b.follow.splice(0, b.follow.length, idp.issuer);
    const nav = await b.navigate(url);
    expect(await finish(b, nav.stoppedAt)).toBe(`${APP}/account?tab=security`);
    expect((await identitiesOf(owner.id)).map((i) => i.subject)).toEqual([p.sub]);
  });

  it('an access token may not start a link (a session is needed)', async () => {
    const owner = await activeUser(api);
    const made = await api.post(
      '/auth/tokens',
      { name: 'script', scopes: ['account'] },
      { token: owner.token },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await api.post('/auth/oidc/idp/link', {}, { token: made.body.token });
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('SESSION_REQUIRED');
    expect(await t.app.svc.db.select().from(oidcStates).where(eq(oidcStates.linkUserId, owner.id))).toEqual(
      [],
    );
  });

  it('an identity linked to another account is not moved: OIDC_IDENTITY_TAKEN', async () => {
    const p = person();
    await signIn(browser(), p.sub);
    const owner = await activeUser(api);
    const b = browser();
    b.cookies.set('plenum_session', owner.token);
    expect(await signIn(b, p.sub, '?intent=link')).toBe(
      `${APP}/account?tab=security&error=OIDC_IDENTITY_TAKEN`,
    );
    expect(await identitiesOf(owner.id)).toHaveLength(0);
  });
});

describe('DELETE /auth/identities/{id}', () => {
  /** an account created by the provider (no password) with its identity */
  async function oidcOnly() {
    const p = person();
    const b = browser();
    await signIn(b, p.sub);
    const token = b.cookies.get('plenum_session')!;
    const list = await api.get('/auth/identities', { token });
    return { p, token, ids: (list.body as { id: string }[]).map((i) => i.id) };
  }

  it('unlinks one of a password account (204); another account’s is a 404', async () => {
    const owner = await activeUser(api);
    const b = browser();
    b.cookies.set('plenum_session', owner.token);
    await signIn(b, person().sub, '?intent=link');
    const [identity] = (await api.get('/auth/identities', { token: owner.token })).body as { id: string }[];
    const stranger = await activeUser(api);
    const other = await api.delete(`/auth/identities/${identity!.id}`, { token: stranger.token });
    expect(other.status).toBe(404);
    const res = await api.delete(`/auth/identities/${identity!.id}`, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect((await api.get('/auth/identities', { token: owner.token })).body).toEqual([]);
    expect((await api.delete('/auth/identities/not-a-uuid', { token: owner.token })).status).toBe(400);
    // the owner's activity says both, the stranger's nothing of it
    const kinds = async (userId: string) =>
      (
        await t.app.svc.db
          .select({ kind: accountEvents.kind, detail: accountEvents.detail })
          .from(accountEvents)
          .where(and(eq(accountEvents.userId, userId), like(accountEvents.kind, 'identity_%')))
      ).map((e) => [e.kind, e.detail]);
    expect((await kinds(owner.id)).sort()).toEqual([
      ['identity_linked', { provider: 'idp' }],
      ['identity_unlinked', { provider: 'idp' }],
    ]);
    expect(await kinds(stranger.id)).toEqual([]);
  });

  it('refuses the last way to sign in: 409 LAST_SIGN_IN_METHOD', async () => {
    const { token, ids } = await oidcOnly();
    const res = await api.delete(`/auth/identities/${ids[0]}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('LAST_SIGN_IN_METHOD');
  });

  it(`of two identities removed at once, exactly one goes (${TEST_DB})`, async () => {
    const { token } = await oidcOnly();
    const b = browser();
    b.cookies.set('plenum_session', token);
    await signIn(b, person().sub, '?intent=link');
    const all = (await api.get('/auth/identities', { token })).body as { id: string }[];
    expect(all).toHaveLength(2);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.delete(`/auth/identities/${all[i % 2]!.id}`, { token })),
    ).then((rs) => rs.map((r) => r.status));
    expect(tally(statuses)[204]).toBe(1);
    expect(statuses.every((s) => s === 204 || s === 404 || s === 409)).toBe(true);
    expect((await api.get('/auth/identities', { token })).body).toHaveLength(1);
  });
});
