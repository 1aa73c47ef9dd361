import { events, proposalComments } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { verifyTypedData } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { linkWallet, memberUser, newWallet } from './support/factories';
import { addMember, createDao, createProposal } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Signed comments (docs/discussion.md, "Signed comments"): a wallet with no account posts and replies by
 * an EIP-712 signature; every refusal stores nothing; one signed message posts once, also under
 * concurrent sends; the stored signature verifies offline; the rate limit is keyed by the address; a
 * signed comment is edited or deleted by the account holding its wallet.
 */
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ env: { COMMENTS_PER_MINUTE: '0' } });
  api = apiClient(t.url);
});
afterAll(() => t.close());

/** written out from docs/discussion.md ("Signed comments"), not imported from core: a drift fails */
const DOMAIN = { name: 'Plenum', version: '1' } as const;
const COMMENT_TYPES = {
  Comment: [
    { name: 'proposalId', type: 'string' },
    { name: 'parentId', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'authorAddress', type: 'address' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;
const nowS = () => Math.floor(Date.now() / 1000);

/** the request body of a comment signed by `wallet` (authorAddress: the wallet unless given) */
async function signed(
  wallet: PrivateKeyAccount,
  c: { proposalId: string; body: string; parentId?: string; authorAddress?: string; timestamp?: number },
) {
  const authorAddress = c.authorAddress ?? wallet.address;
  const timestamp = c.timestamp ?? nowS();
  const signature = await wallet.signTypedData({
    domain: DOMAIN,
    types: COMMENT_TYPES,
    primaryType: 'Comment',
    message: {
      proposalId: c.proposalId,
      parentId: c.parentId ?? '',
      body: c.body,
      authorAddress: authorAddress as `0x${string}`,
      timestamp: BigInt(timestamp),
    },
  });
  return {
    body: c.body,
    ...(c.parentId ? { parentId: c.parentId } : {}),
    authorAddress,
    signature,
    timestamp,
  };
}

async function setup(a: ApiClient = api) {
  const owner = await memberUser(a);
  const dao = await createDao(a, owner);
  const wallet = newWallet();
  await addMember(a, owner, dao.daoId, wallet.address);
  const proposal = await createProposal(a, owner, dao.daoId);
  return { owner, wallet, daoId: dao.daoId, proposalId: proposal.proposalId };
}
const post = (proposalId: string, body: Record<string, unknown>, a: ApiClient = api) =>
  a.post(`/proposals/${proposalId}/comments`, body);
const rowsOf = (proposalId: string) =>
  t.app.svc.db.select().from(proposalComments).where(eq(proposalComments.proposalId, proposalId));

describe('GET /eip712/comment', () => {
  it('is public and gives the domain of signed votes and the Comment type', async () => {
    const res = await api.get('/eip712/comment');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      domain: DOMAIN,
      primaryType: 'Comment',
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
        ],
        Comment: COMMENT_TYPES.Comment,
      },
    });
  });
});

describe('POST /proposals/{proposalId}/comments with a signature', () => {
  it('a member wallet with no account posts and replies: 201, listed with its author, verifiable offline', async () => {
    const s = await setup();
    const text = '**Signed** with a wallet\n\n'.repeat(300);
    const res = await post(s.proposalId, await signed(s.wallet, { proposalId: s.proposalId, body: text }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      proposalId: s.proposalId,
      parentId: null,
      depth: 0,
      authorAddress: s.wallet.address,
      body: text,
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    });
    const reply = await post(
      s.proposalId,
      await signed(s.wallet, { proposalId: s.proposalId, body: 'and a reply', parentId: res.body.id }),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ parentId: res.body.id, depth: 1 });

    const list = (await api.get(`/proposals/${s.proposalId}/comments`)).body;
    expect(list.counts).toEqual({ comments: 2, topLevel: 1 });
    const [top] = list.items;
    expect(top).toMatchObject({ id: res.body.id, authorAddress: s.wallet.address, body: text });
    expect(top.replies[0]).toMatchObject({ id: reply.body.id, authorAddress: s.wallet.address });
    // what a reader checks: the typed data as returned, and the signature, with no server
    for (const c of [top, top.replies[0]]) {
      const { domain, types, primaryType, message } = c.typedData;
      const { EIP712Domain: _, ...rest } = types;
      expect(
        await verifyTypedData({
          address: s.wallet.address,
          domain,
          types: rest,
          primaryType,
          message,
          signature: c.signature,
        }),
      ).toBe(true);
      expect(message).toMatchObject({ proposalId: s.proposalId, body: c.body });
    }
    expect(top.typedData.message.parentId).toBe('');
    expect(top.replies[0].typedData.message.parentId).toBe(res.body.id);

    const [stored] = await t.app.svc.db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.proposalId, s.proposalId), eq(events.type, 'comment_posted')));
    expect(stored!.data).toMatchObject({ comment: { id: res.body.id, signature: res.body.signature } });
  });

  it('a session comment carries no signature', async () => {
    const s = await setup();
    const res = await api.post(
      `/proposals/${s.proposalId}/comments`,
      { body: 'hi' },
      { token: s.owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ signature: null, typedData: null });
  });

  it('refuses: wrong signer, altered body or reply target, outside the window, a non-member, half a signature; nothing stored', async () => {
    const s = await setup();
    const ok = { proposalId: s.proposalId, body: 'hello' };
    const intruder = newWallet();
    const resigned = async () => {
      const b = await signed(s.wallet, ok);
      return { ...b, timestamp: b.timestamp - 1 };
    };
    const cases: [string, Record<string, unknown>, number, string][] = [
      [
        'signed by another wallet',
        await signed(intruder, { ...ok, authorAddress: s.wallet.address }),
        401,
        'INVALID_SIGNATURE',
      ],
      ['altered body', { ...(await signed(s.wallet, ok)), body: 'hello!' }, 401, 'INVALID_SIGNATURE'],
      [
        'garbage signature',
        { ...(await signed(s.wallet, ok)), signature: '0x1234' },
        401,
        'INVALID_SIGNATURE',
      ],
      [
        'signed for another proposal',
        await signed(s.wallet, { ...ok, proposalId: '00000000-0000-4000-8000-000000000000' }),
        401,
        'INVALID_SIGNATURE',
      ],
      // one second before the signed one (not `now - 1`: a second boundary between the two made them equal)
      ['timestamp not as signed', await resigned(), 401, 'INVALID_SIGNATURE'],
      ['expired', await signed(s.wallet, { ...ok, timestamp: nowS() - 11 * 60 }), 401, 'SIGNATURE_EXPIRED'],
      [
        'from the future',
        await signed(s.wallet, { ...ok, timestamp: nowS() + 60 * 60 }),
        401,
        'SIGNATURE_FROM_FUTURE',
      ],
      ['a wallet outside the DAO', await signed(intruder, ok), 403, 'NOT_ELIGIBLE'],
    ];
    const full = await signed(s.wallet, ok);
    const { signature: _s, ...noSignature } = full;
    const { timestamp: _t, ...noTimestamp } = full;
    const { authorAddress: _a, ...noAuthor } = full;
    for (const half of [noSignature, noTimestamp, noAuthor, { ...full, actorAddress: s.wallet.address }])
      cases.push(['half a signature', half, 400, 'VALIDATION_FAILED']);
    cases.push(['no session and no signature', { body: 'hi' }, 401, 'NOT_SIGNED_IN']);
    for (const [what, body, status, reason] of cases) {
      const res = await post(s.proposalId, body);
      expect([res.status, res.body.reason], what).toEqual([status, reason]);
    }
    expect(await rowsOf(s.proposalId)).toHaveLength(0);
  });

  it('a signed reply still follows the thread rules', async () => {
    const s = await setup();
    const root = await post(s.proposalId, await signed(s.wallet, { proposalId: s.proposalId, body: 'r' }));
    const stray = await post(
      s.proposalId,
      await signed(s.wallet, {
        proposalId: s.proposalId,
        body: 'x',
        parentId: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect([stray.status, stray.body.reason]).toEqual([400, 'PARENT_NOT_IN_PROPOSAL']);
    expect(root.status).toBe(201);
  });

  it('one signed message posts once: again 409, re-encoded signature 409, 10 concurrent sends one row', async () => {
    const s = await setup();
    const first = await signed(s.wallet, { proposalId: s.proposalId, body: 'once' });
    expect((await post(s.proposalId, first)).status).toBe(201);
    const again = await post(s.proposalId, first);
    expect([again.status, again.body.reason]).toEqual([409, 'COMMENT_ALREADY_POSTED']);
    // the same signature with v as 0/1 instead of 27/28: another string, the same signed message
    const v = Number.parseInt(first.signature.slice(-2), 16) - 27;
    const reencoded = { ...first, signature: `${first.signature.slice(0, -2)}0${v}` };
    const re = await post(s.proposalId, reencoded);
    expect([re.status, re.body.reason]).toEqual([409, 'COMMENT_ALREADY_POSTED']);

    const burst = await signed(s.wallet, { proposalId: s.proposalId, body: 'burst' });
    const res = await Promise.all(Array.from({ length: 10 }, () => post(s.proposalId, burst)));
    expect(res.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = res.filter((r) => r.status === 409);
    expect(refused).toHaveLength(9);
    expect(new Set(refused.map((r) => r.body.reason))).toEqual(new Set(['COMMENT_ALREADY_POSTED']));
    const rows = await rowsOf(s.proposalId);
    expect(rows.map((r) => r.body).sort()).toEqual(['burst', 'once']);
    const posted = await t.app.svc.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.proposalId, s.proposalId), eq(events.type, 'comment_posted')));
    expect(posted).toHaveLength(2);
  });
});

describe('editing and deleting a signed comment', () => {
  it('the account holding its wallet edits (the signature goes) and deletes; any other account 403', async () => {
    const s = await setup();
    const c = await post(s.proposalId, await signed(s.wallet, { proposalId: s.proposalId, body: 'v1' }));
    expect(c.status).toBe(201);
    const other = await memberUser(api);
    const refused = await api.request(
      'PATCH',
      `/comments/${c.body.id}`,
      { body: 'no' },
      { token: other.token },
    );
    expect([refused.status, refused.body.reason]).toEqual([403, 'NOT_COMMENT_AUTHOR']);
    const noDelete = await api.delete(`/comments/${c.body.id}`, { token: s.owner.token });
    expect([noDelete.status, noDelete.body.reason]).toEqual([403, 'NOT_COMMENT_AUTHOR']);

    const holder = await memberUser(api);
    await linkWallet(api, holder, s.wallet);
    const edited = await api.request(
      'PATCH',
      `/comments/${c.body.id}`,
      { body: 'v2' },
      { token: holder.token },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // the text shown is no longer what was signed: no signature to verify it by
    expect(edited.body).toMatchObject({ body: 'v2', edited: true, signature: null, typedData: null });
    const history = await api.get(`/comments/${c.body.id}/edits`, { token: s.owner.token });
    expect(history.body.items.map((i: { body: string }) => i.body)).toEqual(['v1']);
    const del = await api.delete(`/comments/${c.body.id}`, { token: holder.token });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ deleted: true, body: null, signature: null, typedData: null });
  });

  it('hidden: the signed text and its signature show to moderators only', async () => {
    const s = await setup();
    const c = await post(s.proposalId, await signed(s.wallet, { proposalId: s.proposalId, body: 'rude' }));
    const hid = await api.post(`/comments/${c.body.id}/hide`, { reason: 'rude' }, { token: s.owner.token });
    expect(hid.status, JSON.stringify(hid.body)).toBe(200);
    expect(hid.body).toMatchObject({ body: 'rude', signature: c.body.signature });
    const pub = (await api.get(`/proposals/${s.proposalId}/comments`)).body.items[0];
    expect(pub).toMatchObject({ hidden: true, body: null, signature: null, typedData: null });
  });
});

describe('rate limit of signed comments', () => {
  let limited: TestApp;
  let lapi: ApiClient;
  beforeAll(async () => {
    limited = await startTestApp({ env: { COMMENTS_PER_MINUTE: '3' } });
    lapi = apiClient(limited.url);
  });
  afterAll(() => limited.close());

  it('keyed by the address: 8 different signed comments at once, 3 accepted, 5 429; another wallet unaffected', async () => {
    const s = await setup(lapi);
    const bodies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signed(s.wallet, { proposalId: s.proposalId, body: `#${i}` })),
    );
    const res = await Promise.all(bodies.map((b) => post(s.proposalId, b, lapi)));
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(3);
    expect(statuses.filter((x) => x === 429)).toHaveLength(5);
    expect(res.find((r) => r.status === 429)!.body.reason).toBe('RATE_LIMITED');
    // a replay of a stored one is refused before it could spend the author's budget
    const stored = bodies[statuses.indexOf(201)]!;
    expect((await post(s.proposalId, stored, lapi)).status).toBe(409);

    const another = newWallet();
    await addMember(lapi, s.owner, s.daoId, another.address);
    const ok = await post(
      s.proposalId,
      await signed(another, { proposalId: s.proposalId, body: 'mine' }),
      lapi,
    );
    expect(ok.status).toBe(201);
    expect((await lapi.get(`/proposals/${s.proposalId}/comments`)).body.counts.comments).toBe(4);
  });
});
