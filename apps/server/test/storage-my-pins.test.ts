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

  it('needs a session', async () => {
    await expect(trpcAs().storage.myPins.query({})).rejects.toSatisfy(
      (e) => e instanceof TRPCClientError && e.data?.code === 'UNAUTHORIZED',
    );
  });
});
