import type { AppRouter } from '@plenum/api';
import { ManualClock } from '@plenum/core';
import { TOKEN_SCOPES } from '@plenum/validators';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './support/accounts';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, siweMessage } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

interface SessionInfo {
  id: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

const clock = new ManualClock(Date.parse('2026-09-01T08:00:00Z'));
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const sessionsOf = async (token: string, query = '') => {
  const res = await api.get(`/auth/sessions${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: SessionInfo[]; pagination: { total: number; page: number; limit: number } };
};
const me = (token: string) => api.get('/auth/me', { token }).then((r) => r.status);

describe('sessions and devices', () => {
  it('lists my sessions newest first, with the device, address, times and which one is asking', async () => {
    const user = await activeUser(api);
    clock.advance(60_000);
    const laptop = await loginAs(api, user.email, user.password, 'Laptop/1.0');
    clock.advance(60_000);
    const wallet = await linkWallet(api, user);
    const siwe = await api.post('/auth/siwe', await siweMessage(api, wallet), {
      headers: { 'user-agent': 'WalletBrowser/2.0' },
    });
    expect(siwe.status).toBe(200);

    const { items, pagination } = await sessionsOf(laptop);
    expect(pagination).toMatchObject({ total: 3, page: 1, limit: 50 });
    expect(items.map((s) => s.userAgent)).toEqual(['WalletBrowser/2.0', 'Laptop/1.0', 'node']);
    expect(items.map((s) => s.current)).toEqual([false, true, false]);
    const [newest, current] = items as [SessionInfo, SessionInfo];
    expect(current.ip).toMatch(/127\.0\.0\.1/);
    expect(current.createdAt).toBe(new Date(clock.now().getTime() - 60_000).toISOString());
    expect(current.lastUsedAt).toBe(current.createdAt);
    expect(Date.parse(current.expiresAt) - Date.parse(current.createdAt)).toBe(7 * 86_400_000);
    expect(newest.createdAt).toBe(clock.now().toISOString());
    expect(JSON.stringify(items)).not.toMatch(/token/i);

    const page2 = await sessionsOf(laptop, '?page=2&limit=1');
    expect(page2.items.map((s) => s.userAgent)).toEqual(['Laptop/1.0']);
    expect(page2.pagination).toMatchObject({ total: 3, page: 2, limit: 1, totalPages: 3 });
  });

  it('writes lastUsedAt at most once a minute per session', async () => {
    const user = await activeUser(api);
    const signedInAt = clock.now().toISOString();
    const lastUsed = async () => (await sessionsOf(user.token)).items.find((s) => s.current)!.lastUsedAt;
    clock.advance(30_000);
    expect(await me(user.token)).toBe(200);
    expect(await lastUsed()).toBe(signedInAt);
    clock.advance(31_000);
    expect(await lastUsed()).toBe(clock.now().toISOString());
    const at = clock.now().toISOString();
    clock.advance(59_000);
    expect(await lastUsed()).toBe(at);
  });

  it('ends one session at once (204); someone else’s session is a 404 like an unknown one', async () => {
    const user = await activeUser(api);
    const phone = await loginAs(api, user.email, user.password, 'Phone');
    const stranger = await activeUser(api);
    const phoneId = (await sessionsOf(phone)).items.find((s) => s.current)!.id;

    const theirs = await api.delete(`/auth/sessions/${phoneId}`, { token: stranger.token });
    const unknown = await api.delete('/auth/sessions/00000000-0000-4000-8000-000000000000', {
      token: stranger.token,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(unknown.body);
    expect((await api.delete('/auth/sessions/not-an-id', { token: stranger.token })).status).toBe(404);
    expect(await me(phone)).toBe(200);

    const ended = await api.delete(`/auth/sessions/${phoneId}`, { token: user.token });
    expect(ended.status).toBe(204);
    expect(ended.text).toBe('');
    expect(await me(phone)).toBe(401);
    expect(await me(user.token)).toBe(200);
    expect((await api.delete(`/auth/sessions/${phoneId}`, { token: user.token })).status).toBe(404);
  });

  it('ending the current session signs it out and clears its cookie', async () => {
    const user = await activeUser(api);
    const id = (await sessionsOf(user.token)).items[0]!.id;
    const res = await api.delete(`/auth/sessions/${id}`, { token: user.token });
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/plenum_session=;.*Max-Age=0/);
    expect(await me(user.token)).toBe(401);
  });

  it('signs out of every other session and says how many', async () => {
    const user = await activeUser(api);
    const others = [
      await loginAs(api, user.email, user.password, 'A'),
      await loginAs(api, user.email, user.password, 'B'),
    ];
    const stranger = await activeUser(api);
    const res = await api.post('/auth/sessions/revoke-others', undefined, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
    for (const o of others) expect(await me(o)).toBe(401);
    expect(await me(user.token)).toBe(200);
    expect(await me(stranger.token)).toBe(200);
    expect((await sessionsOf(user.token)).items).toHaveLength(1);
    const again = await api.post('/auth/sessions/revoke-others', undefined, { token: user.token });
    expect(again.body).toEqual({ ended: 0 });
  });

  it('needs a signed-in session: anonymous is 401, a personal access token 403 SESSION_REQUIRED', async () => {
    const user = await activeUser(api);
    // even with every scope (docs/accounts.md, "Token scopes"), a token is not a session
    const pat = (
      await api.post('/auth/tokens', { name: 'script', scopes: TOKEN_SCOPES }, { token: user.token })
    ).body.token as string;
    const id = (await sessionsOf(user.token)).items[0]!.id;
    for (const [method, path] of [
      ['GET', '/auth/sessions'],
      ['DELETE', `/auth/sessions/${id}`],
      ['POST', '/auth/sessions/revoke-others'],
    ] as const) {
      expect((await api.request(method, path)).status, `${method} ${path}`).toBe(401);
      const byPat = await api.request(method, path, undefined, { token: pat });
      expect(byPat.status, `${method} ${path}`).toBe(403);
      expect(byPat.body.reason).toBe('SESSION_REQUIRED');
    }
    expect(await me(user.token)).toBe(200);
  });

  it('offers the same as tRPC procedures (auth.sessions, auth.revokeSession, auth.revokeOtherSessions)', async () => {
    const user = await activeUser(api);
    const other = await loginAs(api, user.email, user.password, 'Other');
    const third = await loginAs(api, user.email, user.password, 'Third');
    // the web app's link (httpLink would send an input-less mutation as an empty JSON body)
    const client = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${t.url}/trpc`,
          headers: { authorization: `Bearer ${user.token}` },
        }),
      ],
    });
    const list = await client.auth.sessions.query();
    expect(list.items).toHaveLength(3);
    const otherId = list.items.find((s) => s.userAgent === 'Other')!.id;
    await client.auth.revokeSession.mutate({ id: otherId });
    expect(await me(other)).toBe(401);
    expect(await client.auth.revokeOtherSessions.mutate()).toEqual({ ended: 1 });
    expect(await me(third)).toBe(401);
    expect((await client.auth.sessions.query({ page: 1, limit: 10 })).items).toHaveLength(1);
  });
});
