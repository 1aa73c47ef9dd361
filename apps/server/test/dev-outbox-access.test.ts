import { networkInterfaces } from 'node:os';
import { emailOutbox } from '@plenum/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { login, PASSWORD, register } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * The development outbox holds every reset link, so reading it over the network is an account takeover
 * (docs/operations.md, "Email"): without a mail provider it answers an admin from anywhere, and anyone else
 * only from a loopback SOCKET to an instance whose APP_URL is on localhost; everyone else gets the 404 of
 * an unknown path. The apps listen on every interface and are reached through this machine's own
 * non-loopback address, so the server sees a real non-loopback peer (the predicate itself has unit tests
 * in packages/core/src/auth/outbox-access.test.ts).
 */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const NEW_PASSWORD = 'Taken-Over-Pass-9';

/** The reproduction: request a reset for the admin, read the link from the outbox, confirm, sign in. */
async function takeOver(api: ApiClient, email: string, headers: Record<string, string> = {}) {
  expect((await api.post('/auth/password-reset', { email }, { headers })).status).toBe(202);
  const outbox = await api.get('/dev/outbox', { headers });
  if (outbox.status !== 200) return { outbox, signedIn: false };
  const mail = (outbox.body.items as { to: string; text: string }[]).find(
    (m) => m.to === email && m.text.includes('/reset-password?token='),
  );
  const token = /reset-password\?token=([\w%-]+)/.exec(mail?.text ?? '')?.[1];
  const confirm = await api.post(
    '/auth/password-reset/confirm',
    { token, newPassword: NEW_PASSWORD },
    { headers },
  );
  const signIn = await api.post('/auth/login', { email, password: NEW_PASSWORD }, { headers });
  return {
    outbox,
    signedIn: confirm.status === 200 && signIn.status === 200 && signIn.body.user.role === 'admin',
  };
}

async function adminOf(t: TestApp, email: string) {
  const api = apiClient(t.url);
  expect((await register(api, { email })).status).toBe(201);
  return login(api, email, PASSWORD);
}

const outboxAvailable = async (api: ApiClient, headers: Record<string, string> = {}) =>
  (await api.get('/trpc/system.info', { headers })).body.result.data.outboxAvailable as boolean;

describe.skipIf(!external)('development outbox access over the network', () => {
  let deployed: TestApp; // APP_URL is not localhost: a deployment that forgot RESEND_API_KEY
  let local: TestApp; // APP_URL on localhost: the local trial
  beforeAll(async () => {
    [deployed, local] = await Promise.all([
      startTestApp({
        host: '0.0.0.0',
        env: { APP_URL: 'http://plenum.example.org', ADMIN_EMAILS: 'boss@example.org', TRUST_PROXY: 'true' },
      }),
      startTestApp({ host: '0.0.0.0', env: { ADMIN_EMAILS: 'boss@example.org', TRUST_PROXY: 'true' } }),
    ]);
  });
  afterAll(() => Promise.all([deployed?.close(), local?.close()]));
  const remote = (t: TestApp) => apiClient(t.url.replace('127.0.0.1', external!));

  it('refuses the anonymous takeover on a deployment, even from loopback, with the 404 of an unknown path', async () => {
    await adminOf(deployed, 'boss@example.org');
    for (const api of [remote(deployed), apiClient(deployed.url)]) {
      const { outbox, signedIn } = await takeOver(api, 'boss@example.org');
      expect(outbox.status).toBe(404);
      expect(signedIn).toBe(false);
      const unknown = await api.get('/dev/outbox-nothing');
      expect(outbox.body).toEqual({ ...unknown.body, message: 'No route for GET /dev/outbox' });
      expect(await outboxAvailable(api)).toBe(false);
    }
    // tRPC answers like an unknown procedure
    const trpc = await fetch(`${remote(deployed).baseUrl}/trpc/dev.outbox`);
    expect(trpc.status).toBe(404);
    // the mails are there, unread: nobody but an admin reads them
    expect((await deployed.app.svc.db.select().from(emailOutbox)).length).toBeGreaterThan(0);
  });

  it('lets an admin read it from a non-loopback address, and says so in system.info', async () => {
    const token = await login(apiClient(deployed.url), 'boss@example.org');
    const res = await remote(deployed).get('/dev/outbox', { token });
    expect(res.status).toBe(200);
    expect(res.body.items.some((m: { to: string }) => m.to === 'boss@example.org')).toBe(true);
    expect(
      (await remote(deployed).get('/trpc/system.info', { token })).body.result.data.outboxAvailable,
    ).toBe(true);
  });

  it('on a local trial answers loopback only: neither a remote peer nor a forged X-Forwarded-For', async () => {
    await adminOf(local, 'boss@example.org');
    const forged = { 'x-forwarded-for': '127.0.0.1' };
    const fromRemote = await takeOver(remote(local), 'boss@example.org', forged);
    expect(fromRemote.outbox.status).toBe(404);
    expect(fromRemote.signedIn).toBe(false);
    expect(await outboxAvailable(remote(local), forged)).toBe(false);
    // the local trial itself keeps working without a mail provider
    expect(await outboxAvailable(apiClient(local.url))).toBe(true);
    const fromLoopback = await takeOver(apiClient(local.url), 'boss@example.org');
    expect(fromLoopback.outbox.status).toBe(200);
    expect(fromLoopback.signedIn).toBe(true);
  });
});
