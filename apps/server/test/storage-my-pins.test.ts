import type { AppRouter } from '@plenum/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { PNG_1x1, uploadBytes } from './support/storage';

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ env: { IPFS_TIMEOUT: '1500' } });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const trpcAs = (token?: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${t.url}/trpc`, headers: token ? { authorization: `Bearer ${token}` } : {} })],
  });

describe('storage.myPins (tRPC, for the web app)', () => {
  it('lists only the caller’s pins with file metadata, newest first, paged and filtered by status', async () => {
    const alice = await memberUser(api);
    const bob = await memberUser(api);
    const first = await uploadBytes(api, alice.token, 'hello, plenum', 'hello.txt', 'text/plain');
    const second = await uploadBytes(api, alice.token, PNG_1x1, 'dot.png', 'image/png');
    await uploadBytes(api, bob.token, 'bob was here', 'bob.txt', 'text/plain');
    expect([first.status, second.status]).toEqual([201, 201]);

    const page1 = await trpcAs(alice.token).storage.myPins.query({ limit: 1 });
    expect(page1.pagination).toEqual({ total: 2, page: 1, limit: 1, totalPages: 2 });
    expect(page1.items[0]).toMatchObject({
      cid: second.body.cid,
      metadata: { filename: 'dot.png', mimetype: 'image/png', size: PNG_1x1.length },
    });
    const page2 = await trpcAs(alice.token).storage.myPins.query({ limit: 1, page: 2 });
    expect(page2.items[0]?.cid).toBe(first.body.cid);
    const failed = await trpcAs(alice.token).storage.myPins.query({ status: 'failed' });
    expect(failed.items).toEqual([]);
  });

  it('searches name, file name, CID and meta values, ignoring case, with % and _ taken literally', async () => {
    const alice = await memberUser(api);
    const bob = await memberUser(api);
    const photo = await uploadBytes(api, alice.token, PNG_1x1, 'Holiday_Photo.png', 'image/png');
    const notes = await uploadBytes(api, alice.token, 'fifty-fifty', 'notes 100%.txt', 'text/plain');
    const bobs = await uploadBytes(api, bob.token, 'the report itself', 'report.txt', 'text/plain');
    // a pin by CID through the Pinning Service API, with a name and meta but no file name or size
    const byCid = await api.post(
      '/pins',
      { cid: bobs.body.cid, name: 'Quarterly Report', meta: { project: 'Apollo Launch', year: '2026' } },
      { token: alice.token },
    );
    expect([photo.status, notes.status, byCid.status]).toEqual([201, 201, 202]);
    const search = async (q: string, more: { status?: 'pinned' | 'failed' } = {}) =>
      (await trpcAs(alice.token).storage.myPins.query({ q, ...more })).items.map(
        (p) => p.name ?? p.metadata.filename,
      );

    expect(await search('holiday')).toEqual(['Holiday_Photo.png']);
    expect(await search('REPORT')).toEqual(['Quarterly Report']);
    expect(await search('apollo launch')).toEqual(['Quarterly Report']);
    expect(await search('2026')).toEqual(['Quarterly Report']);
    expect(await search(photo.body.cid.slice(-12))).toEqual(['Holiday_Photo.png']);
    // LIKE wildcards match themselves: % only in "notes 100%.txt", _ only in "Holiday_Photo.png"
    expect(await search('%')).toEqual(['notes 100%.txt']);
    expect(await search('_')).toEqual(['Holiday_Photo.png']);
    expect(await search('  ')).toHaveLength(3);
    // bob's own file name is not alice's, and the filters combine
    expect(await search('report.txt')).toEqual([]);
    expect(await search('holiday', { status: 'failed' })).toEqual([]);
    const items = (await trpcAs(alice.token).storage.myPins.query({ q: 'apollo' })).items;
    expect(items[0]?.meta).toEqual({ project: 'Apollo Launch', year: '2026' });
    expect((await trpcAs(bob.token).storage.myPins.query({ q: 'apollo' })).items).toEqual([]);
  });

  it('sorts by newest, oldest, name (unnamed last) and size (unknown last), paging without repeats', async () => {
    const carol = await memberUser(api);
    const helper = await memberUser(api);
    const big = 'b'.repeat(300);
    for (const [text, name] of [
      ['mid', 'beta.txt'],
      [big, 'Gamma.txt'],
      ['s', 'alpha.txt'],
    ] as const)
      expect((await uploadBytes(api, carol.token, text, name, 'text/plain')).status).toBe(201);
    const other = await uploadBytes(api, helper.token, 'pinned by CID', 'x.txt', 'text/plain');
    expect((await api.post('/pins', { cid: other.body.cid }, { token: carol.token })).status).toBe(202);
    const order = async (sort: 'newest' | 'oldest' | 'name' | 'size') => {
      const all: (string | null)[] = [];
      for (let page = 1; page <= 2; page++) {
        const res = await trpcAs(carol.token).storage.myPins.query({ sort, limit: 2, page });
        all.push(...res.items.map((p) => p.name ?? p.metadata.filename ?? null));
      }
      return all;
    };
    expect(await order('newest')).toEqual([null, 'alpha.txt', 'Gamma.txt', 'beta.txt']);
    expect(await order('oldest')).toEqual(['beta.txt', 'Gamma.txt', 'alpha.txt', null]);
    expect(await order('name')).toEqual(['alpha.txt', 'beta.txt', 'Gamma.txt', null]);
    expect(await order('size')).toEqual(['Gamma.txt', 'beta.txt', 'alpha.txt', null]);
  });

  it('refuses an unknown order and an over-long search with a 400 naming the field', async () => {
    const dave = await memberUser(api);
    // sending what the types forbid is the point
    const bad = (input: unknown) =>
      trpcAs(dave.token)
        .storage.myPins.query(input as never)
        .then(
          () => null,
          (e: unknown) => e,
        );
    for (const [input, path] of [
      [{ sort: 'largest' }, 'sort'],
      [{ q: 'x'.repeat(201) }, 'q'],
      [{ q: 42 }, 'q'],
    ] as const) {
      const err = await bad(input);
      expect(err).toBeInstanceOf(TRPCClientError);
      const e = err as { data?: { httpStatus?: number; reason?: string } };
      expect(e.data?.httpStatus).toBe(400);
      expect(JSON.stringify(e.data)).toContain(path);
    }
  });

  it('needs a session', async () => {
    await expect(trpcAs().storage.myPins.query({})).rejects.toSatisfy(
      (e) => e instanceof TRPCClientError && e.data?.code === 'UNAUTHORIZED',
    );
  });
});

describe('HEAD /ipfs/file/{cid} (the files page reads a preview’s type and size with it)', () => {
  it('answers the file’s real Content-Length and no body, not 0', async () => {
    const erin = await memberUser(api);
    const up = await uploadBytes(api, erin.token, PNG_1x1, 'dot.png', 'image/png');
    const head = await fetch(`${t.url}/ipfs/file/${up.body.cid}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(head.headers.get('content-length')).toBe(String(PNG_1x1.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});
