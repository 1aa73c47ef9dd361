import { ManualClock } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { uploadBytes } from './support/storage';

let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({ clock, env: { IPFS_TIMEOUT: '2000' } });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

async function tokenFor(session: string, name = 'kubo') {
  const res = await api.post('/auth/tokens', { name }, { token: session });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.token).toMatch(/^plm_/);
  return res.body as { id: string; token: string };
}

describe('personal access tokens', () => {
  it('creates (shown once), lists, revokes at once; tokens cannot mint tokens', async () => {
    const user = await memberUser(api);
    const pat = await tokenFor(user.token);
    const list = await api.get('/auth/tokens', { token: user.token });
    expect(list.body.items).toEqual([expect.objectContaining({ id: pat.id, name: 'kubo' })]);
    expect(list.body.pagination).toEqual({ total: 1, page: 1, limit: 50, totalPages: 1 });
    expect(JSON.stringify(list.body)).not.toContain(pat.token);
    // paged like every list (docs/api.md, "Lists"), newest first
    clock.advance(1000);
    const second = await tokenFor(user.token);
    const page2 = await api.get('/auth/tokens?page=2&limit=1', { token: user.token });
    expect(page2.body.items).toEqual([expect.objectContaining({ id: pat.id })]);
    expect(page2.body.pagination).toEqual({ total: 2, page: 2, limit: 1, totalPages: 2 });
    expect((await api.get('/auth/tokens?limit=1', { token: user.token })).body.items[0].id).toBe(second.id);
    expect((await api.get('/auth/tokens?limit=0', { token: user.token })).status).toBe(400);
    expect((await api.delete(`/auth/tokens/${second.id}`, { token: user.token })).status).toBe(204);
    expect((await api.get('/pins', { token: pat.token })).status).toBe(200);
    expect((await api.get('/auth/me', { token: pat.token })).status).toBe(200);
    const used = await api.get('/auth/tokens', { token: user.token });
    expect(used.body.items[0].lastUsedAt).toMatch(/Z$/);
    expect((await api.post('/auth/tokens', { name: 'x' }, { token: pat.token })).status).toBe(403);
    expect(
      (
        await api.post(
          '/auth/tokens',
          { name: 'x', expiresAt: '2020-01-01T00:00:00Z' },
          { token: user.token },
        )
      ).status,
    ).toBe(400);
    const other = await memberUser(api);
    expect((await api.delete(`/auth/tokens/${pat.id}`, { token: other.token })).status).toBe(404);
    expect((await api.delete(`/auth/tokens/${pat.id}`, { token: user.token })).status).toBe(204);
    const after = await api.get('/pins', { token: pat.token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: { reason: 'UNAUTHORIZED', details: expect.any(String) } });
  });
});

describe('IPFS Pinning Service API', () => {
  it('answers 401 in its own body without a token', async () => {
    for (const [m, p] of [
      ['GET', '/pins'],
      ['POST', '/pins'],
      ['GET', '/pins/x'],
      ['POST', '/pins/x'],
      ['DELETE', '/pins/x'],
    ] as const) {
      const res = await api.request(m, p, m === 'POST' ? { cid: 'x' } : undefined, { token: 'plm_wrong' });
      expect(res.status, `${m} ${p}`).toBe(401);
      expect(res.body.error.reason).toBe('UNAUTHORIZED');
    }
  });

  it('adds, gets, lists with filters, replaces and deletes', async () => {
    const user = await memberUser(api);
    const { token } = await tokenFor(user.token);
    const cids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const up = await uploadBytes(api, user.token, `file number ${i}`, `f${i}.txt`);
      cids.push(up.body.cid);
    }
    await (t.app.svc.storage as { idle(): Promise<void> }).idle();
    // named pins through the API (already present content → pinned after verification)
    const added = await api.post(
      '/pins',
      { cid: cids[0], name: 'Alpha-Report', meta: { app: 'plenum', kind: 'doc' } },
      { token },
    );
    expect(added.status).toBe(202);
    expect(added.body).toMatchObject({
      status: expect.stringMatching(/pinning|pinned/),
      pin: { cid: cids[0], name: 'Alpha-Report' },
    });
    expect(added.body.delegates).toBeInstanceOf(Array);
    await api.post('/pins', { cid: cids[1], name: 'beta report' }, { token });
    await (t.app.svc.storage as { idle(): Promise<void> }).idle();

    const one = await api.get(`/pins/${added.body.requestid}`, { token });
    expect(one.body).toMatchObject({ requestid: added.body.requestid, status: 'pinned' });

    const all = await api.get('/pins?limit=1000', { token });
    expect(all.body.count).toBe(7);
    const created = all.body.results.map((r: { created: string }) => r.created);
    expect(new Set(created).size).toBe(7); // unique, even on a stopped clock
    expect([...created].sort().reverse()).toEqual(created); // newest first

    const q = async (qs: string) => (await api.get(`/pins?${qs}`, { token })).body;
    expect((await q('name=Alpha-Report')).count).toBe(1);
    expect((await q('name=alpha-report')).count).toBe(0);
    expect((await q('name=alpha-report&match=iexact')).count).toBe(1);
    expect((await q('name=report&match=partial')).count).toBe(1);
    expect((await q('name=REPORT&match=ipartial')).count).toBe(2);
    expect((await q(`cid=${cids[2]},${cids[3]}`)).count).toBe(2);
    expect((await q(`meta=${encodeURIComponent('{"app":"plenum"}')}`)).count).toBe(1);
    expect((await q('status=failed')).count).toBe(0);
    expect((await q('status=pinned,failed')).count).toBe(7);
    expect((await api.get('/pins?limit=0', { token })).status).toBe(400);
    expect((await api.get('/pins?limit=1001', { token })).status).toBe(400);
    expect((await api.get('/pins?match=fuzzy&name=x', { token })).body.error.reason).toBe('BAD_REQUEST');
    expect((await api.get('/pins?status=lost', { token })).status).toBe(400);

    // pagination with before: no gaps, no overlap
    const seen: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < 10; page++) {
      const body = await q(`limit=3${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      if (!body.results.length) break;
      seen.push(...body.results.map((r: { requestid: string }) => r.requestid));
      before = body.results.at(-1).created;
    }
    expect(seen).toEqual(all.body.results.map((r: { requestid: string }) => r.requestid));
    const after = await q(`after=${encodeURIComponent(created[3])}&limit=10`);
    expect(after.results.map((r: { created: string }) => r.created)).toEqual(created.slice(0, 3));

    // replace: a new requestid, the old one is gone
    const replaced = await api.post(
      `/pins/${added.body.requestid}`,
      { cid: cids[0], name: 'renamed' },
      { token },
    );
    expect(replaced.status).toBe(202);
    expect(replaced.body.requestid).not.toBe(added.body.requestid);
    expect(replaced.body.pin.name).toBe('renamed');
    expect((await api.get(`/pins/${added.body.requestid}`, { token })).status).toBe(404);

    // delete
    expect((await api.delete(`/pins/${replaced.body.requestid}`, { token })).status).toBe(202);
    expect((await api.get(`/pins/${replaced.body.requestid}`, { token })).status).toBe(404);
    expect((await api.delete(`/pins/${replaced.body.requestid}`, { token })).status).toBe(404);

    // someone else's request is invisible
    const other = await memberUser(api);
    const otherPat = await tokenFor(other.token);
    expect((await api.get(`/pins/${one.body.requestid}`, { token: otherPat.token })).status).toBe(404);
    expect((await api.get('/pins', { token: otherPat.token })).body.count).toBe(0);
    expect((await api.post('/pins', { cid: 'nope' }, { token })).status).toBe(400);
    expect((await api.post('/pins', { cid: cids[0], extra: 1 }, { token })).status).toBe(400);
  });

  it('accepts a CID that is not available yet as pinning, failed after the timeout', async () => {
    const user = await memberUser(api);
    const { token } = await tokenFor(user.token);
    const missing = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    const res = await api.post('/pins', { cid: missing }, { token });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('pinning');
    await (t.app.svc.storage as { idle(): Promise<void> }).idle();
    const got = await api.get(`/pins/${res.body.requestid}`, { token });
    expect(got.body.status).toBe('failed');
  });
});
