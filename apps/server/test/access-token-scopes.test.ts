import { appRouter, listOperations, operationScope } from '@plenum/api';
import { votes } from '@plenum/db';
import { TOKEN_SCOPES } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { socketSubscriber, trpcSubscriber } from './support/events';
import { memberUser, type TestUser } from './support/factories';
import { createProposal, daoWithMembers, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { uploadBytes } from './support/storage';

/**
 * Personal access tokens carry scopes (docs/accounts.md, "Token scopes"): every procedure and plain route
 * is classified, and a call outside a token's scopes is 403 INSUFFICIENT_SCOPE before any work.
 */
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

const tokenFor = async (user: TestUser, scopes?: string[]) => {
  const res = await api.post(
    '/auth/tokens',
    { name: 'script', ...(scopes ? { scopes } : {}) },
    { token: user.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; scopes: string[]; id: string };
};

const refusedFor = (res: { status: number; body: any }, required: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body).toMatchObject({ code: 'FORBIDDEN', reason: 'INSUFFICIENT_SCOPE', detail: required });
};

const votesOn = async (proposalId: string) =>
  (await t.app.svc.db.select().from(votes).where(eq(votes.proposalId, proposalId))).length;

/** a voter in a DAO with an open proposal */
async function ballot() {
  const { owner, dao, members } = await daoWithMembers(api, 1);
  const proposal = await createProposal(api, owner, dao.daoId);
  const voter = members[0]!;
  const body = {
    proposalId: proposal.proposalId,
    daoId: dao.daoId,
    voterAddress: voter.wallet.address,
    choice: 'For',
  };
  return { dao, proposal, voter, cast: (token: string) => api.post('/votes', body, { token }) };
}

describe('creating a token with scopes', () => {
  it('defaults to read, governance and storage, lists them, and refuses unknown, repeated or no scopes', async () => {
    const user = await memberUser(api);
    expect((await tokenFor(user)).scopes).toEqual(['read', 'governance', 'storage']);
    // kept in one order, whatever order they were asked in
    expect((await tokenFor(user, ['account', 'read'])).scopes).toEqual(['read', 'account']);
    const listed = (await api.get('/auth/tokens', { token: user.token })).body.items;
    expect(listed.map((i: { scopes: string[] }) => i.scopes)).toEqual([
      ['read', 'account'],
      ['read', 'governance', 'storage'],
    ]);
    for (const scopes of [[], ['admin'], ['read', 'read'], 'read']) {
      const res = await api.post('/auth/tokens', { name: 'x', scopes }, { token: user.token });
      expect(res.status, JSON.stringify(scopes)).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
      expect(res.body.issues[0].path).toMatch(/^scopes/);
    }
    const repeated = await api.post(
      '/auth/tokens',
      { name: 'x', scopes: ['read', 'read'] },
      { token: user.token },
    );
    expect(repeated.body.issues[0].code).toBe('scopes_distinct');
    expect((await api.get('/auth/tokens', { token: user.token })).body.items).toHaveLength(2);
  });
});

describe('a call outside the scopes', () => {
  it('a read token reads a DAO and /auth/me; its vote is 403 and writes nothing', async () => {
    const { dao, proposal, voter, cast } = await ballot();
    const { token } = await tokenFor(voter, ['read']);
    expect((await api.get(`/daos/${dao.daoId}`, { token })).status).toBe(200);
    expect((await api.get('/auth/me', { token })).status).toBe(200);
    refusedFor(await cast(token), 'governance');
    expect(await votesOn(proposal.proposalId)).toBe(0);
    // the same over tRPC's HTTP transport, where the reason and detail are in the error's data
    const trpc = await api.post(
      '/trpc/governance.votes.cast',
      {
        proposalId: proposal.proposalId,
        daoId: dao.daoId,
        voterAddress: voter.wallet.address,
        choice: 'For',
      },
      { token },
    );
    expect(trpc.status).toBe(403);
    expect(trpc.body.error.data).toMatchObject({ reason: 'INSUFFICIENT_SCOPE', detail: 'governance' });
    expect(await votesOn(proposal.proposalId)).toBe(0);
  });

  it('a storage token uploads and pins but does not vote; a governance token votes but does not upload', async () => {
    const { proposal, voter, cast } = await ballot();
    const storage = (await tokenFor(voter, ['storage'])).token;
    const uploaded = await uploadBytes(api, storage, 'hello scopes', 'a.txt', 'text/plain');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const cid = uploaded.body.cid as string;
    expect([200, 201]).toContain((await api.post(`/ipfs/pin/${cid}`, undefined, { token: storage })).status);
    refusedFor(await cast(storage), 'governance');
    // a read is a read, even of one's own pins (in the Pinning Service API's own error body)
    const list = await api.get('/pins', { token: storage });
    expect(list.status).toBe(403);
    expect(list.body.error).toMatchObject({
      reason: 'INSUFFICIENT_SCOPE',
      details: expect.stringContaining('read'),
    });

    const governance = (await tokenFor(voter, ['governance'])).token;
    refusedFor(await uploadBytes(api, governance, 'no', 'b.txt', 'text/plain'), 'storage');
    refusedFor(await api.post(`/ipfs/pin/${cid}`, undefined, { token: governance }), 'storage');
    expect((await cast(governance)).status).toBe(201);
    expect(await votesOn(proposal.proposalId)).toBe(1);
  });

  it('the Pinning Service API answers in its own error body', async () => {
    const user = await memberUser(api);
    const { token } = await tokenFor(user, ['read']);
    const res = await api.post(
      '/pins',
      { cid: 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq' },
      { token },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.reason).toBe('INSUFFICIENT_SCOPE');
    expect(res.body.error.details).toContain('storage');
  });

  it('account writes need `account`: the default token may not change the profile, an account token may', async () => {
    const user = await memberUser(api);
    const byDefault = (await tokenFor(user)).token;
    refusedFor(await api.put(`/users/${user.id}`, { bio: 'from a script' }, { token: byDefault }), 'account');
    refusedFor(await api.get('/auth/tokens', { token: byDefault }), 'account');
    const account = (await tokenFor(user, ['account'])).token;
    const ok = await api.put(`/users/${user.id}`, { bio: 'from a script' }, { token: account });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // and nothing else: not even the reads
    refusedFor(await api.get('/auth/me', { token: account }), 'read');
  });

  it('sessions keep every right', async () => {
    const { proposal, voter, cast } = await ballot();
    expect((await api.put(`/users/${voter.id}`, { bio: 'by hand' }, { token: voter.token })).status).toBe(
      200,
    );
    expect((await uploadBytes(api, voter.token, 'session file', 'c.txt', 'text/plain')).status).toBe(201);
    expect((await cast(voter.token)).status).toBe(201);
    expect(await votesOn(proposal.proposalId)).toBe(1);
  });

  it.runIf(TEST_DB === 'postgres')('many refused votes at once: every one 403, none written', async () => {
    const { proposal, voter, cast } = await ballot();
    const tokens = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        tokenFor(voter, [TOKEN_SCOPES.filter((s) => s !== 'governance')[i % 3]!]),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => cast(tokens[i % tokens.length]!.token)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(403));
    expect(new Set(answers.map((a) => a.body.reason))).toEqual(new Set(['INSUFFICIENT_SCOPE']));
    expect(await votesOn(proposal.proposalId)).toBe(0);
  });
});

describe('event streams', () => {
  let user: Member;
  beforeAll(async () => {
    user = await memberUser(api);
  });

  it('refuse a token without `read`, on Socket.IO and on the tRPC WebSocket', async () => {
    const { token } = await tokenFor(user, ['governance', 'storage']);
    const socket = socketSubscriber(t, { token });
    const err = (await socket.connected.then(
      () => null,
      (e: unknown) => e,
    )) as { data?: Record<string, unknown> } | null;
    socket.close();
    expect(err?.data).toMatchObject({ code: 'FORBIDDEN', reason: 'INSUFFICIENT_SCOPE', detail: 'read' });

    const sub = trpcSubscriber(t, token);
    await expect(sub.waitFor(1)).rejects.toThrow(/read/);
    sub.close();
    const error = sub.errors[0] as { data?: Record<string, unknown> };
    expect(error.data).toMatchObject({ code: 'FORBIDDEN', reason: 'INSUFFICIENT_SCOPE', detail: 'read' });
  });

  it('let a read token in', async () => {
    const { token } = await tokenFor(user, ['read']);
    const socket = socketSubscriber(t, { token });
    await socket.connected;
    socket.close();
  });
});

/**
 * What each path needs, written out from docs/accounts.md ("Token scopes") rather than read from the
 * code: a new path that fits none of these lines fails here until someone decides its scope.
 */
function expectedScope(method: string, path: string): string | undefined {
  if (
    (path === '/auth/tokens' || path === '/auth/identities' || path === '/auth/activity') &&
    method === 'get'
  )
    return 'account';
  if (path.startsWith('/admin/')) return 'account';
  // webhook endpoints and their deliveries are the account's integrations (docs/webhooks.md)
  if (path === '/webhooks' || path.startsWith('/webhooks/')) return 'account';
  if (method === 'get') return 'read';
  if (/^\/(auth|users|notifications)\//.test(`${path}/`)) return 'account';
  if (/^\/(ipfs|pins)\//.test(`${path}/`)) return 'storage';
  if (/^\/(daos|proposals|votes|comments)\//.test(`${path}/`)) return 'governance';
  return undefined;
}

/** paths the server answers without reading a credential (its system routes) */
const NO_CREDENTIALS = new Set(['/health', '/ready', '/api/docs', '/api/docs-json']);

describe('every operation is classified', () => {
  it('every procedure of the app router has a scope; subscriptions and queries need read', () => {
    const operations = listOperations(appRouter);
    expect(operations.length).toBeGreaterThan(50);
    const unclassified = operations.filter((op) => !operationScope(op)).map((op) => op.path);
    expect(unclassified).toEqual([]);
    for (const op of operations.filter((o) => o.type === 'subscription'))
      expect(operationScope(op), op.path).toBe('read');
  });

  it('every REST path of the OpenAPI document says its scope, as the table says', async () => {
    const doc = (await api.get('/api/docs-json')).body as {
      paths: Record<string, Record<string, { 'x-token-scope'?: string; description?: string }>>;
    };
    const seen: string[] = [];
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (NO_CREDENTIALS.has(path)) {
          expect(op['x-token-scope'], path).toBeUndefined();
          continue;
        }
        const scope = op['x-token-scope'];
        seen.push(`${method} ${path}`);
        if (!scope || scope !== expectedScope(method, path))
          wrong.push(`${method.toUpperCase()} ${path}: ${scope} (expected ${expectedScope(method, path)})`);
        else expect(op.description, path).toContain(`Access tokens need the \`${scope}\` scope.`);
      }
    }
    expect(wrong).toEqual([]);
    // the plain routes are in the document too: the Pinning Service API, uploads, avatars
    expect(seen).toEqual(
      expect.arrayContaining(['post /pins', 'post /ipfs/upload', 'put /users/{id}/avatar']),
    );
  });
});
