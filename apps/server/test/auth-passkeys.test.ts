import { ManualClock, NO_PASSWORD } from '@plenum/core';
import { emailOutbox, passkeyChallenges, passkeys, sessions, users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMailFor } from './support/accounts';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { activeUser, type TestUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { SoftAuthenticator } from './support/soft-authenticator';

/**
 * Passkeys (docs/accounts.md, "Passkeys"), over REST with a software authenticator: adding, listing and
 * removing them, the usernameless sign-in, a passkey as the second step of a password sign-in, and
 * every refusal: wrong origin or rp id, a replayed or expired challenge, an unknown credential, a
 * cloned counter, a suspended account, the last way to sign in. APP_URL is http://localhost:3000.
 */
const ORIGIN = 'http://localhost:3000';
const ADMIN = 'passkey-admin@example.org';
const clock = new ManualClock(new Date('2026-11-27T12:00:10Z'));
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: { RATE_LIMIT_DISABLED: 'true', ADMIN_EMAILS: ADMIN, MFA_REQUIRED_FOR_ADMINS: 'true' },
  });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};
const mailsTo = async (email: string) =>
  (await t.app.svc.db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).map((m) => m.subject);
const storedPasskeys = (userId: string) =>
  t.app.svc.db.select().from(passkeys).where(eq(passkeys.userId, userId));

const registerOptions = async (u: TestUser, body?: unknown) => {
  const res = await api.post('/auth/passkeys/register/options', body ?? {}, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** an active user with one passkey on a new software authenticator */
async function withPasskey(user?: TestUser, counterMode: 'increment' | 'zero' = 'increment') {
  const u = user ?? (await activeUser(api));
  const authenticator = new SoftAuthenticator(ORIGIN, counterMode);
  const options = await registerOptions(u);
  const res = await api.post(
    '/auth/passkeys/register',
    { response: authenticator.register(options), name: 'Laptop' },
    { token: u.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { user: u, authenticator, passkey: res.body as { id: string } };
}

const loginOptions = async (body: unknown = {}) => {
  const res = await api.post('/auth/passkeys/login/options', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const passkeyLogin = (response: unknown) => api.post('/auth/passkeys/login', { response });

describe('adding passkeys', () => {
  it('gives creation options, stores the passkey, lists it, excludes it next time, mails the owner and ends other sessions once', async () => {
    const user = await activeUser(api);
    const other = (await api.post('/auth/login', { email: user.email, password: user.password })).body
      .token as string;
    const options = await registerOptions(user, { name: 'Work laptop' });
    expect(options.rp).toEqual({ id: 'localhost', name: 'Plenum' });
    expect(options.user.name).toBe(user.email);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'preferred',
    });
    expect(options.excludeCredentials).toEqual([]);
    expect(options.attestation).toBe('none');

    const authenticator = new SoftAuthenticator(ORIGIN);
    const res = await api.post(
      '/auth/passkeys/register',
      { response: authenticator.register(options) },
      { token: user.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Work laptop',
      createdAt: clock.now().toISOString(),
      lastUsedAt: null,
      transports: ['internal'],
      backedUp: false,
    });
    const list = await api.get('/auth/passkeys', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([res.body]);
    // the stored key is the public one; nothing of it in the list
    const [row] = await storedPasskeys(user.id);
    expect(row!.credentialId).toBe(authenticator.credentials[0]!.id.toString('base64url'));
    expect(list.text).not.toContain(row!.publicKey);

    // its first second factor: the session opened with the password alone ends, this one stays
    expect((await api.get('/auth/me', { token: other })).status).toBe(401);
    expect((await api.get('/auth/me', { token: user.token })).status).toBe(200);
    expect(await mailsTo(user.email)).toContain('A passkey was added to your account');

    const next = await registerOptions(user);
    expect(next.excludeCredentials).toEqual([
      { id: row!.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
    // a second passkey, named at the register step: the account had a factor already, no session ends
    const third = await api.post('/auth/login', { email: user.email, password: user.password });
    const thirdToken = (
      await api.post('/auth/login/mfa', {
        mfaToken: third.body.mfaToken,
        passkey: authenticator.authenticate(await loginOptions({ mfaToken: third.body.mfaToken })),
      })
    ).body.token as string;
    const second = await api.post(
      '/auth/passkeys/register',
      { response: new SoftAuthenticator(ORIGIN).register(next), name: ' Phone ' },
      { token: user.token },
    );
    expect(second.status).toBe(201);
    expect(second.body.name).toBe('Phone');
    expect((await api.get('/auth/me', { token: thirdToken })).status).toBe(200);
    expect((await api.get('/auth/passkeys', { token: user.token })).body.items).toHaveLength(2);
  });

  it('refuses a wrong origin, a wrong rp id, a replayed or foreign challenge and the same credential twice', async () => {
    const user = await activeUser(api);
    const stranger = await activeUser(api);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const refused = async (response: unknown, who = user) => {
      const res = await api.post('/auth/passkeys/register', { response }, { token: who.token });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.reason).toBe('PASSKEY_VERIFICATION_FAILED');
    };
    await refused(authenticator.register(await registerOptions(user), { origin: 'https://evil.example' }));
    await refused(authenticator.register(await registerOptions(user), { rpId: 'evil.example' }));
    // a challenge made up by the client, and another account's challenge
    await refused(authenticator.register(await registerOptions(user), { challenge: 'bWFkZS11cA' }));
    await refused(authenticator.register(await registerOptions(stranger)));
    // garbage where the library expects CBOR and JSON: a 400, never a 500
    const options = await registerOptions(user);
    const good = authenticator.register(options);
    await refused({ ...good, response: { ...good.response, attestationObject: 'AAAA' } });
    await refused({ ...good, response: { ...good.response, clientDataJSON: 'bm90IGpzb24' } });

    const fresh = await registerOptions(user);
    const ok = authenticator.register(fresh);
    expect((await api.post('/auth/passkeys/register', { response: ok }, { token: user.token })).status).toBe(
      201,
    );
    // the same answer again: its challenge is spent
    await refused(ok);
    // the same credential with a new challenge (to this account, or to another one): 409
    const credential = authenticator.credentials.at(-1)!;
    for (const who of [user, stranger]) {
      const again = authenticator.attest(credential, await registerOptions(who));
      const dup = await api.post('/auth/passkeys/register', { response: again }, { token: who.token });
      expect(dup.status, JSON.stringify(dup.body)).toBe(409);
      expect(dup.body.reason).toBe('PASSKEY_ALREADY_REGISTERED');
    }
    const malformed = await api.post(
      '/auth/passkeys/register',
      { response: { id: 'x' } },
      { token: user.token },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.reason).toBe('VALIDATION_FAILED');
  });

  it('needs a signed-in session, not an access token, and a signed-in caller', async () => {
    const user = await activeUser(api);
    const pat = await api.post(
      '/auth/tokens',
      { name: 'script', scopes: ['read', 'governance', 'storage', 'account'] },
      { token: user.token },
    );
    const byToken = await api.post('/auth/passkeys/register/options', {}, { token: pat.body.token });
    expect(byToken.status).toBe(403);
    expect(byToken.body.reason).toBe('SESSION_REQUIRED');
    // a session may send no body at all
    expect((await api.post('/auth/passkeys/register/options', undefined, { token: user.token })).status).toBe(
      200,
    );
    const anonymous = await api.post('/auth/passkeys/register/options', {});
    expect(anonymous.status).toBe(401);
    expect((await api.get('/auth/passkeys')).status).toBe(401);
  });

  it('challenges are short-lived: an answer after five minutes is refused', async () => {
    const user = await activeUser(api);
    const options = await registerOptions(user);
    clock.advance(5 * 60_000 + 1000);
    const res = await api.post(
      '/auth/passkeys/register',
      { response: new SoftAuthenticator(ORIGIN).register(options) },
      { token: user.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('PASSKEY_VERIFICATION_FAILED');
  });
});

describe('signing in with a passkey', () => {
  it('signs in without a password or a code, like POST /auth/login, and records the use', async () => {
    const { user, authenticator } = await withPasskey();
    const options = await loginOptions();
    expect(options).toMatchObject({ rpId: 'localhost', allowCredentials: [], userVerification: 'required' });
    expect(options.challenge).toEqual(expect.any(String));
    // no body at all is the same as {}; every call gets its own challenge
    const bare = await api.post('/auth/passkeys/login/options');
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body.challenge).not.toBe(options.challenge);
    const res = await passkeyLogin(authenticator.authenticate(options));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.expiresAt).toEqual(expect.any(String));
    expect(String(res.headers.get('set-cookie'))).toContain('plenum_session=');
    expect((await api.get('/auth/me', { token: res.body.token })).status).toBe(200);
    const [row] = await storedPasskeys(user.id);
    expect(row!.counter).toBe(1);
    expect(row!.lastUsedAt?.toISOString()).toBe(clock.now().toISOString());
    // nothing of the challenge is left to answer again
    const left = await t.app.svc.db.select().from(passkeyChallenges);
    expect(left.every((c) => c.purpose !== 'login' || c.expiresAt > clock.now())).toBe(true);
  });

  it('signs in an account with TOTP without its code (a passkey is both factors)', async () => {
    const user = await activeUser(api);
    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    const code = TOTP.generate({
      secret: Secret.fromBase32(start.body.secret),
      timestamp: clock.now().getTime(),
    });
    expect((await api.post('/auth/mfa/totp/confirm', { code }, { token: user.token })).status).toBe(200);
    const { authenticator } = await withPasskey(user);
    const res = await passkeyLogin(authenticator.authenticate(await loginOptions()));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
  });

  it('signs in with a passkey whose counter stays zero (synced passkeys)', async () => {
    const { authenticator } = await withPasskey(undefined, 'zero');
    for (let i = 0; i < 2; i++)
      expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
  });

  it('answers 401 PASSKEY_INVALID to a wrong origin or rp id, a replayed, made-up or expired challenge, an unknown credential, a bad signature and no user verification', async () => {
    const { authenticator } = await withPasskey();
    const invalid = async (response: unknown) => {
      const res = await passkeyLogin(response);
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.reason).toBe('PASSKEY_INVALID');
      expect(res.headers.get('set-cookie')).toBeNull();
    };
    await invalid(authenticator.authenticate(await loginOptions(), { origin: 'https://evil.example' }));
    await invalid(authenticator.authenticate(await loginOptions(), { rpId: 'evil.example' }));
    await invalid(authenticator.authenticate(await loginOptions(), { challenge: 'bWFkZS11cA' }));
    await invalid(authenticator.authenticate(await loginOptions(), { noUserVerification: true }));
    const answer = authenticator.authenticate(await loginOptions());
    expect((await passkeyLogin(answer)).status).toBe(200);
    await invalid(answer);
    const late = await loginOptions();
    clock.advance(5 * 60_000 + 1000);
    await invalid(authenticator.authenticate(late));
    // a credential the server never saw, registered by nobody
    const unknown = new SoftAuthenticator(ORIGIN);
    unknown.register({ challenge: 'x', rp: { id: 'localhost', name: 'Plenum' }, user: { id: 'AAAA' } });
    await invalid(unknown.authenticate(await loginOptions()));
    const good = authenticator.authenticate(await loginOptions());
    const sig = Buffer.from(good.response.signature, 'base64url');
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 1, sig.length - 1);
    await invalid({ ...good, response: { ...good.response, signature: sig.toString('base64url') } });
    // the bad signature spent its challenge but left the passkey as it was: the next sign-in works
    expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
  });

  it('refuses a cloned authenticator whose counter did not grow, and does not update the passkey', async () => {
    const { user, authenticator } = await withPasskey();
    const clone = authenticator.clone();
    expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
    expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
    const [before] = await storedPasskeys(user.id);
    expect(before!.counter).toBe(2);
    clock.advance(60_000);
    // the copy counts from where it was copied: 1, then 2, both not above the server's 2
    for (let i = 0; i < 2; i++) {
      const res = await passkeyLogin(clone.authenticate(await loginOptions()));
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.reason).toBe('PASSKEY_COUNTER_INVALID');
    }
    const [after] = await storedPasskeys(user.id);
    expect(after).toEqual(before);
    // the genuine authenticator goes on
    expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
  });

  it('refuses a suspended account with 403 ACCOUNT_SUSPENDED', async () => {
    const { user, authenticator } = await withPasskey();
    await t.app.svc.db.update(users).set({ status: 'suspended' }).where(eq(users.id, user.id));
    const res = await passkeyLogin(authenticator.authenticate(await loginOptions()));
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('ACCOUNT_SUSPENDED');
    await t.app.svc.db.update(users).set({ status: 'active' }).where(eq(users.id, user.id));
  });

  it.runIf(TEST_DB === 'postgres')(
    'signs in once when the same answer arrives many times at once',
    async () => {
      const { user, authenticator } = await withPasskey();
      const answer = authenticator.authenticate(await loginOptions());
      const countSessions = async () =>
        (await t.app.svc.db.select().from(sessions).where(eq(sessions.userId, user.id))).length;
      const before = await countSessions();
      const results = await Promise.all(Array.from({ length: 12 }, () => passkeyLogin(answer)));
      expect(tally(results.map((r) => r.status))).toEqual({ 200: 1, 401: 11 });
      expect(await countSessions()).toBe(before + 1);
    },
  );
});

describe('a passkey as the second factor', () => {
  const password = (u: TestUser) => api.post('/auth/login', { email: u.email, password: u.password });

  it('makes a password sign-in ask for it, and finishes with it', async () => {
    const { user, authenticator } = await withPasskey();
    const first = await password(user);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfaRequired: true, methods: ['passkey'] });
    expect(first.headers.get('set-cookie')).toBeNull();
    const mfaToken = first.body.mfaToken as string;
    const options = await loginOptions({ mfaToken });
    expect(options.allowCredentials).toEqual([
      {
        id: authenticator.credentials[0]!.id.toString('base64url'),
        type: 'public-key',
        transports: ['internal'],
      },
    ]);
    const answer = authenticator.authenticate(options, { noUserVerification: true });
    const done = await api.post('/auth/login/mfa', { mfaToken, passkey: answer });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.user.id).toBe(user.id);
    expect(String(done.headers.get('set-cookie'))).toContain('plenum_session=');
    // both the mfaToken and the challenge are spent
    const again = await api.post('/auth/login/mfa', { mfaToken, passkey: answer });
    expect(again.status).toBe(401);
    expect(again.body.reason).toBe('MFA_TOKEN_INVALID');
  });

  it('lists every method of an account with TOTP and a passkey', async () => {
    const user = await activeUser(api);
    const start = await api.post('/auth/mfa/totp', undefined, { token: user.token });
    const code = TOTP.generate({
      secret: Secret.fromBase32(start.body.secret),
      timestamp: clock.now().getTime(),
    });
    expect((await api.post('/auth/mfa/totp/confirm', { code }, { token: user.token })).status).toBe(200);
    await withPasskey(user);
    const first = await password(user);
    expect(first.body.methods).toEqual(['totp', 'recovery_code', 'passkey']);
  });

  it('refuses an unknown mfaToken, another account’s passkey, a login challenge, and both a code and a passkey', async () => {
    const { user, authenticator } = await withPasskey();
    const { authenticator: strangers } = await withPasskey();
    const unknown = await api.post('/auth/passkeys/login/options', { mfaToken: 'mfa_nothing' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.reason).toBe('MFA_TOKEN_INVALID');

    const mfaToken = (await password(user)).body.mfaToken as string;
    const options = await loginOptions({ mfaToken });
    const foreign = await api.post('/auth/login/mfa', {
      mfaToken,
      passkey: strangers.authenticate(options, {}, strangers.credentials[0]),
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body.reason).toBe('PASSKEY_INVALID');
    // a usernameless sign-in's challenge does not answer a second step
    const wrongKind = await api.post('/auth/login/mfa', {
      mfaToken,
      passkey: authenticator.authenticate(await loginOptions()),
    });
    expect(wrongKind.status).toBe(401);
    expect(wrongKind.body.reason).toBe('PASSKEY_INVALID');
    const both = await api.post('/auth/login/mfa', {
      mfaToken,
      code: '123456',
      passkey: authenticator.authenticate(await loginOptions({ mfaToken })),
    });
    expect(both.status).toBe(400);
    // and the second-step challenge does not sign in on its own
    const alone = await passkeyLogin(authenticator.authenticate(await loginOptions({ mfaToken })));
    expect(alone.status).toBe(401);
    // the refusals left the mfaToken usable
    const ok = await api.post('/auth/login/mfa', {
      mfaToken,
      passkey: authenticator.authenticate(await loginOptions({ mfaToken })),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('keeps MFA_REQUIRED_FOR_ADMINS: an admin may add a passkey, and then the password alone no longer signs in', async () => {
    const admin = await activeUser(api, { email: ADMIN });
    const refused = await api.get('/admin/users', { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('MFA_ENROLMENT_REQUIRED');
    const { authenticator } = await withPasskey(admin);
    expect((await api.get('/admin/users', { token: admin.token })).status).toBe(200);
    const first = await password(admin);
    expect(first.body).toMatchObject({ mfaRequired: true, methods: ['passkey'] });
    const direct = await passkeyLogin(authenticator.authenticate(await loginOptions()));
    expect(direct.status).toBe(200);
    expect((await api.get('/admin/users', { token: direct.body.token })).status).toBe(200);
  });

  it.runIf(TEST_DB === 'postgres')(
    'finishes once when the same answer arrives many times at once',
    async () => {
      const { user, authenticator } = await withPasskey();
      const mfaToken = (await password(user)).body.mfaToken as string;
      const answer = authenticator.authenticate(await loginOptions({ mfaToken }));
      const countSessions = async () =>
        (await t.app.svc.db.select().from(sessions).where(eq(sessions.userId, user.id))).length;
      const before = await countSessions();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => api.post('/auth/login/mfa', { mfaToken, passkey: answer })),
      );
      // the others are refused: the spent challenge (401), or the throttle their failures earned (429)
      const counts = tally(results.map((r) => r.status));
      expect(counts[200]).toBe(1);
      expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(9);
      expect(await countSessions()).toBe(before + 1);
    },
  );
});

describe('removing passkeys', () => {
  it('removes one of yours (mailing you), answers 404 for another account’s or an unknown id', async () => {
    const { user, passkey } = await withPasskey();
    const stranger = await activeUser(api);
    const theirs = await api.delete(`/auth/passkeys/${passkey.id}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect((await api.delete('/auth/passkeys/not-a-uuid', { token: user.token })).status).toBe(404);
    expect(
      (await api.delete('/auth/passkeys/00000000-0000-4000-8000-000000000000', { token: user.token })).status,
    ).toBe(404);
    const mine = await api.delete(`/auth/passkeys/${passkey.id}`, { token: user.token });
    expect(mine.status).toBe(204);
    expect(await storedPasskeys(user.id)).toEqual([]);
    expect(await mailsTo(user.email)).toContain('A passkey was removed');
    // no factor left: the password alone signs in again
    const again = await api.post('/auth/login', { email: user.email, password: user.password });
    expect(again.body.token).toEqual(expect.any(String));
  });

  it('never removes the last way to sign in: 409 LAST_SIGN_IN_METHOD', async () => {
    const { user, authenticator, passkey } = await withPasskey();
    await t.app.svc.db.update(users).set({ passwordHash: NO_PASSWORD }).where(eq(users.id, user.id));
    const res = await api.delete(`/auth/passkeys/${passkey.id}`, { token: user.token });
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('LAST_SIGN_IN_METHOD');
    // it still signs in
    expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
  });

  it.runIf(TEST_DB === 'postgres')(
    'of two passkeys removed at once (many times each) from an account without a password, one goes',
    async () => {
      const { user, passkey: a } = await withPasskey();
      const { passkey: b } = await withPasskey(user);
      await t.app.svc.db.update(users).set({ passwordHash: NO_PASSWORD }).where(eq(users.id, user.id));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api.delete(`/auth/passkeys/${i % 2 ? a.id : b.id}`, { token: user.token }),
        ),
      );
      const counts = tally(results.map((r) => r.status));
      expect(counts[204]).toBe(1);
      expect((counts[404] ?? 0) + (counts[409] ?? 0)).toBe(11);
      expect(await storedPasskeys(user.id)).toHaveLength(1);
    },
  );
});

describe('deleting the account', () => {
  it('forgets its passkeys: they no longer sign in', async () => {
    const { user, authenticator } = await withPasskey();
    expect((await api.delete(`/users/${user.id}`, { token: user.token })).status).toBe(204);
    expect(await storedPasskeys(user.id)).toEqual([]);
    const res = await passkeyLogin(authenticator.authenticate(await loginOptions()));
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('PASSKEY_INVALID');
  });
});

describe('undoing an email change', () => {
  it('takes back the passkeys added after the change and keeps the older ones', async () => {
    const { user, authenticator } = await withPasskey();
    clock.advance(1_000);
    const newEmail = `moved.${user.email}`;
    expect(
      (await api.post('/auth/email', { newEmail, password: user.password }, { token: user.token })).status,
    ).toBe(202);
    expect(
      (
        await api.post('/auth/email/confirm', {
          token: (await linkMailFor(api, newEmail, 'confirm-email')).token,
        })
      ).status,
    ).toBe(200);
    clock.advance(1_000);
    const { authenticator: intruders } = await withPasskey(user);
    expect(await storedPasskeys(user.id)).toHaveLength(2);
    const { token } = await linkMailFor(api, user.email, 'undo-email-change');
    expect((await api.post('/auth/email/undo', { token })).status).toBe(200);
    const left = await storedPasskeys(user.id);
    expect(left.map((p) => p.credentialId)).toEqual([authenticator.credentials[0]!.id.toString('base64url')]);
    expect((await passkeyLogin(intruders.authenticate(await loginOptions()))).status).toBe(401);
    expect((await passkeyLogin(authenticator.authenticate(await loginOptions()))).status).toBe(200);
  });
});

describe('the cookie path', () => {
  it('refuses cookie-authenticated passkey writes from another origin (CSRF) and takes them from the app', async () => {
    const { user, authenticator, passkey } = await withPasskey();
    // a session from a passkey sign-in, carried by its cookie
    const login = await passkeyLogin(authenticator.authenticate(await loginOptions()));
    const session = login.headers.get('set-cookie')!.split(';')[0]!;
    const evil = { cookie: session, origin: 'http://evil.localhost:3000' };
    const options = await api.post('/auth/passkeys/register/options', {}, { headers: evil });
    expect(options.status).toBe(403);
    expect(options.body.reason).toBe('CSRF');
    const removal = await api.delete(`/auth/passkeys/${passkey.id}`, { headers: evil });
    expect(removal.status).toBe(403);
    expect(removal.body.reason).toBe('CSRF');
    expect(await storedPasskeys(user.id)).toHaveLength(1);
    const own = { cookie: session, origin: ORIGIN };
    expect((await api.post('/auth/passkeys/register/options', {}, { headers: own })).status).toBe(200);
  });
});
