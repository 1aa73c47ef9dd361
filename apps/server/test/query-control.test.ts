import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

/**
 * A control character in the query string is refused before any route runs, whether the route reads
 * the parameter or not (docs/api.md, "Validation"): REST, tRPC, the plain routes and the Pinning
 * Service API alike.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = async (path: string) => {
  const res = await fetch(t.url + path);
  return { status: res.status, body: (await res.json()) as any };
};
const CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

describe('a control character in the query string', () => {
  it('REST: 400 VALIDATION_FAILED naming the parameter, read or ignored by the route', async () => {
    for (const [q, path, code] of [
      ['?ignored=%00', 'ignored', 'nul_character'],
      ['?page=1%00', 'page', 'nul_character'],
      ['?x=1&a%00b=1', 'ab', 'nul_character'],
      ['?search=a%01b', 'search', 'control_character'],
      ['?search=%7F', 'search', 'control_character'],
    ] as const) {
      const res = await get(`/daos${q}`);
      expect([res.status, res.body.code, res.body.reason], q).toEqual([
        400,
        'BAD_REQUEST',
        'VALIDATION_FAILED',
      ]);
      expect(res.body.issues, q).toEqual([{ path, message: expect.any(String), code }]);
    }
  });

  it('tRPC: the same refusal in the tRPC error shape', async () => {
    const input = encodeURIComponent('{}');
    const res = await get(`/trpc/governance.daos.list?input=${input}&ignored=%00`);
    expect(res.status).toBe(400);
    expect(res.body.error.data).toMatchObject({ code: 'BAD_REQUEST', reason: 'VALIDATION_FAILED' });
    const batch = await get(
      `/trpc/governance.daos.list?batch=1&input=${encodeURIComponent('{"0":{}}')}&x=%00`,
    );
    expect(batch.status).toBe(400);
    expect(batch.body[0].error.data.reason).toBe('VALIDATION_FAILED');
  });

  it('plain routes and the Pinning Service API', async () => {
    const file = await get(`/ipfs/file/${CID}?download=%00`);
    expect([file.status, file.body.reason]).toEqual([400, 'VALIDATION_FAILED']);
    const pins = await get('/pins?name=%00');
    expect([pins.status, pins.body.error.reason]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('lets through what is not a control character: an escaped %, tab, line feed, text', async () => {
    const list = `/trpc/governance.daos.list?input=${encodeURIComponent('{}')}`;
    for (const q of ['%2500', 'a%09b%0Ac%0D', '%C3%A9%E2%80%8B'])
      expect((await get(`${list}&ignored=${q}`)).status, q).toBe(200);
    expect((await get(`/ipfs/file/${CID}?x=%2500`)).status).toBe(404);
  });
});
