import { sessionOfSignIn } from '@plenum/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, newResponse, type TestApi } from './support/api';
import { failure } from './support/errors';
import { login, newWallet, PASSWORD, registration, siweProof, verificationToken } from './support/factories';

/** Accounts through the routers: registration, email verification, sign-in, wallets, sign-out. */

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api?.close());

describe('system.info', () => {
  it('publishes the configuration a web form needs', async () => {
    const info = await (await api.caller()).system.info();
    expect(info).toEqual({
      name: 'Plenum',
      version: 'test',
      emailProviderConfigured: false,
      // the test caller's socket is loopback and APP_URL localhost: a local trial reads its outbox
      outboxAvailable: true,
      emailVerificationRequired: true,
      passwordPolicy: api.svc.config.passwordPolicy,
      // no TERMS_URL configured: registration asks for no terms (docs/accounts.md, "Terms of use")
      termsUrl: null,
      // the upload limits, so a page can show them and refuse a file before sending it
      uploads: {
        maxFileSize: 1_000_000,
        allowedFileTypes: ['text/plain'],
        maxAvatarSize: 5_242_880,
        avatarTypes: ['image/jpeg', 'image/png', 'image/gif'],
        // several files go as one folder upload (docs/storage.md, "Folders and several files")
        directoryUploads: true,
      },
      // no IPFS_GATEWAY_URLS here: no public gateway to link to
      ipfsGateway: null,
    });
  });
});

describe('registration → verification → sign-in', () => {
  it('walks a new account from pending to signed in', async () => {
    const anon = await api.caller();
    const input = registration({ email: 'Grace.Hopper@Example.org', firstName: '  Grace ' });
    const user = await anon.registration.register(input);
    expect(user).toMatchObject({
      email: 'grace.hopper@example.org',
      firstName: 'Grace',
      status: 'pending_verification',
    });
    expect(user).not.toHaveProperty('password');

    const outbox = await anon.dev.outbox();
    expect(outbox.items.filter((m) => m.to === user.email)).toHaveLength(1);

    const verified = await anon.registration.verifyEmail({ token: await verificationToken(api, user.email) });
    expect(verified).toMatchObject({ id: user.id, status: 'active', emailVerified: true });

    const response = newResponse();
    const session = sessionOfSignIn(
      await (await api.caller(null, response)).auth.login({ email: input.email, password: PASSWORD }),
    )!;
    expect(session.user.id).toBe(user.id);
    // the cookie carries the session for exactly its lifetime
    const lifetime = (Date.parse(session.expiresAt) - Date.now()) / 1000;
    expect(response.cookies).toHaveLength(1);
    expect(response.cookies[0]?.token).toBe(session.token);
    expect(Math.abs((response.cookies[0]?.maxAgeSeconds ?? 0) - lifetime)).toBeLessThan(5);
    expect(lifetime).toBeGreaterThan(7 * 86_400 - 60);

    const me = await (await api.caller(session.token)).auth.me();
    expect(me).toMatchObject({ user: { id: user.id, status: 'active' }, wallets: [] });
  });

  it('refuses a wrong password with 401 INVALID_CREDENTIALS and sets no cookie', async () => {
    const user = await (await api.caller()).registration.register(registration());
    const response = newResponse();
    const caller = await api.caller(null, response);
    const f = await failure(caller.auth.login({ email: user.email, password: `${PASSWORD}x` }));
    expect(f).toMatchObject({ code: 'UNAUTHORIZED', reason: 'INVALID_CREDENTIALS' });
    expect(response.cookies).toEqual([]);
  });

  it('refuses a token that was never mailed with a field issue, and leaves the account pending', async () => {
    const anon = await api.caller();
    const user = await anon.registration.register(registration());
    const token = await verificationToken(api, user.email);
    const f = await failure(anon.registration.verifyEmail({ token: `${token}x` }));
    expect(f.code).toBe('BAD_REQUEST');
    expect(f.issues?.map((i) => i.path)).toEqual(['token']);
    const me = await (await api.caller(await login(api, user.email))).auth.me();
    expect(me.user.status).toBe('pending_verification');
  });

  it('hides the development outbox once an email provider is configured', async () => {
    api.svc.emailProviderConfigured = true;
    try {
      expect((await failure((await api.caller()).dev.outbox())).code).toBe('NOT_FOUND');
    } finally {
      api.svc.emailProviderConfigured = false;
    }
  });
});

describe('wallets and sign-out', () => {
  it('links a wallet by EIP-4361 message, then signs in with it', async () => {
    const user = await (await api.caller()).registration.register(registration());
    const token = await login(api, user.email);
    const wallet = newWallet();
    const linked = await (await api.caller(token)).auth.linkWallet(await siweProof(api, wallet));
    expect(linked).toMatchObject({ address: wallet.address, isPrimary: true });

    const session = sessionOfSignIn(await (await api.caller()).auth.siwe(await siweProof(api, wallet)))!;
    expect(session.user.id).toBe(user.id);
    const page = await (await api.caller(session.token)).auth.wallets({ page: 1, limit: 10 });
    expect(page.items.map((w) => w.address)).toEqual([wallet.address]);
    expect(page.pagination).toMatchObject({ total: 1, page: 1, limit: 10, totalPages: 1 });
  });

  it('ends exactly this session on logout and clears the cookie', async () => {
    const user = await (await api.caller()).registration.register(registration());
    const [first, second] = [await login(api, user.email), await login(api, user.email)];
    const response = newResponse();
    await (await api.caller(first, response)).auth.logout();
    expect(response.cookies).toEqual([{ token: '', maxAgeSeconds: 0 }]);
    expect((await failure((await api.caller(first)).auth.me())).code).toBe('UNAUTHORIZED');
    expect((await (await api.caller(second)).auth.me()).user.id).toBe(user.id);
  });
});
