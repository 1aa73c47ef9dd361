import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReply } from '../src/http/errors';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ env: { MAX_JSON_BODY: '4096' } });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const expectErrorBody = (body: any, code: string) => {
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts:\d+/);
  for (const k of Object.keys(body)) expect(['code', 'reason', 'message', 'issues']).toContain(k);
};

describe('the error body for bad input', () => {
  it('malformed JSON → 400', async () => {
    const res = await api.post('/auth/login', undefined, {
      raw: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'BAD_REQUEST');
  });

  it('wrong types → 400 with field issues', async () => {
    const res = await api.post('/auth/login', { email: 42, password: ['x'] });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'BAD_REQUEST');
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'password']);
  });

  it('JSON bodies are not coerced: a string "false" or "50" where a boolean or number belongs → 400', async () => {
    const terms = await api.post('/users', {
      email: 'coerce@example.org',
      password: 'Correct-Horse-9',
      firstName: 'A',
      lastName: 'B',
      acceptedTerms: 'false',
    });
    expect(terms.status).toBe(400);
    const member = await memberUser(api);
    const dao = await api.post(
      '/daos',
      {
        name: 'Coerced',
        ownerAddress: member.wallet.address,
        votingRules: { threshold: '50', minVotingPeriod: 0, tokenWeighted: 'false' },
      },
      { token: member.token },
    );
    expect(dao.status).toBe(400);
    const paths = dao.body.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['votingRules.threshold', 'votingRules.tokenWeighted']);
  });

  it('query strings are still coerced (page=2)', async () => {
    const res = await api.get('/daos?page=2&limit=5');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ page: 2, limit: 5 });
  });

  it('a body field naming a path parameter → 400 (the path says which resource), nothing changed', async () => {
    const a = await activeUser(api);
    const b = await activeUser(api);
    const res = await api.put(`/users/${a.id}`, { id: b.id, firstName: 'Changed' }, { token: a.token });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'BAD_REQUEST');
    expect(res.body.issues).toEqual([expect.objectContaining({ path: 'id', code: 'unrecognized_keys' })]);
    expect((await api.get(`/users/${a.id}`, { token: a.token })).body.firstName).not.toBe('Changed');
    // a literal route is not mistaken for a parameter one: /users/verify-email is not /users/{id}
    expect((await api.post('/users/verify-email', { token: 'x'.repeat(43) })).status).toBe(400);
    expect((await api.post('/users/resend-verification', { email: 'n@example.org' })).status).toBe(202);
  });

  it('a path that takes no body refuses one with fields (POST /ipfs/pin, every DELETE), and accepts none or {}', async () => {
    const u = await memberUser(api);
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    const withOwner = await api.post(
      `/ipfs/pin/${cid}`,
      { owner: '0x0000000000000000000000000000000000000001' },
      { token: u.token },
    );
    expect(withOwner.status).toBe(400);
    expect(withOwner.body.issues).toEqual([
      expect.objectContaining({ path: 'owner', code: 'unrecognized_keys' }),
    ]);
    const malformed = await api.request('POST', `/ipfs/pin/${cid}`, undefined, {
      token: u.token,
      raw: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await api.post(`/ipfs/pin/${cid}`, {}, { token: u.token })).status).toBe(201);
    const del = await api.request(
      'DELETE',
      `/ipfs/unpin/${cid}`,
      { owner: u.wallet.address },
      { token: u.token },
    );
    expect(del.status).toBe(400);
    expect((await api.delete(`/ipfs/unpin/${cid}`, { token: u.token })).status).toBe(200);
  });

  it('unknown fields → 400, never stored', async () => {
    const res = await api.post('/auth/login', { email: 'a@b.org', password: 'x', admin: true });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'BAD_REQUEST');
    expect(res.body.issues[0].code).toBe('unrecognized_keys');
  });

  it('a JSON array or scalar body → 400', async () => {
    expect((await api.post('/auth/login', [1, 2])).status).toBe(400);
    expect((await api.post('/auth/login', 'text')).status).toBe(400);
  });

  it('an oversized body → 413', async () => {
    const res = await api.post('/auth/login', { email: 'a@b.org', password: 'x'.repeat(10_000) });
    expect(res.status).toBe(413);
    expectErrorBody(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('a non-JSON content type → 415', async () => {
    const res = await api.post('/auth/login', undefined, {
      raw: 'email=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expectErrorBody(res.body, 'UNSUPPORTED_MEDIA_TYPE');
    expect(res.body.message).toBe('Unsupported content-type "text/plain"');
  });

  it("a tRPC call with a form body → 415 in tRPC's envelope, the body left unread", async () => {
    const form = new FormData();
    form.set('email', 'a@b.org');
    form.set('blob', new Blob([new Uint8Array(64 * 1024)]));
    const res = await fetch(`${t.url}/trpc/auth.login`, { method: 'POST', body: form });
    expect(res.status).toBe(415);
    const body = await res.json();
    expect(body.error.data).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      httpStatus: 415,
      path: 'auth.login',
    });
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts:\d+/);
  });

  it('JSON with a charset parameter is accepted', async () => {
    const res = await api.post(
      '/auth/login',
      { email: 'nobody@example.org', password: 'Whatever-1' },
      { headers: { 'content-type': 'application/json; charset=utf-8' } },
    );
    expect(res.status).toBe(401);
  });

  it('a POST that takes no body works with no body and no content type', async () => {
    const res = await fetch(`${t.url}/auth/logout`, { method: 'POST' });
    expect(res.status).toBe(401); // reached the procedure: not signed in
  });

  it('an unknown path → 404 in the same shape', async () => {
    const res = await api.get('/no/such/path');
    expect(res.status).toBe(404);
    expectErrorBody(res.body, 'NOT_FOUND');
  });

  it('health reports the database and version', async () => {
    const res = await api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', db: 'ok' });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.body.ipfs).toHaveProperty('provider');
  });
});

describe('a lock conflict on a plain route (outside tRPC)', () => {
  it('is 503 DATABASE_BUSY with Retry-After, logged as a warning, not as a failure', () => {
    const driver = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const answer = errorReply(new Error('Failed query: update …', { cause: driver }));
    expect(answer).toMatchObject({
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE', reason: 'DATABASE_BUSY' },
      headers: { 'Retry-After': '1' },
      unexpected: false,
      lockConflict: true,
    });
    expect(answer.body.message).not.toMatch(/deadlock/);
  });
});
