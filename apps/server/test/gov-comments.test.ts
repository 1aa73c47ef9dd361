import { events, proposalCommentEdits } from '@plenum/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { subscribed, trpcSubscriber } from './support/events';
import { activeUser, memberUser, newWallet } from './support/factories';
import { addMember, createDao, createProposal, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Threads on proposals (docs/discussion.md): who writes, the body's rules, two levels of replies, the
 * public threaded read, edits with their history, tombstones, hiding by the DAO's moderators, the live
 * events and the per-account rate limit under concurrent writes.
 */
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ env: { COMMENTS_PER_MINUTE: '0' } });
  api = apiClient(t.url);
});
afterAll(() => t.close());

async function setup() {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner);
  const member = await memberUser(api);
  await addMember(api, owner, dao.daoId, member.wallet.address);
  const proposal = await createProposal(api, owner, dao.daoId);
  return { owner, member, daoId: dao.daoId, proposalId: proposal.proposalId };
}
const post = (proposalId: string, by: { token: string } | null, body: Record<string, unknown>) =>
  api.post(`/proposals/${proposalId}/comments`, body, by ? { token: by.token } : {});
async function posted(proposalId: string, by: Member, body: Record<string, unknown>) {
  const res = await post(proposalId, by, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; [k: string]: unknown };
}
const patch = (id: string, by: { token: string }, body: unknown) =>
  api.request('PATCH', `/comments/${id}`, body, { token: by.token });
const thread = (proposalId: string, query = '', by?: { token: string }) =>
  api.get(`/proposals/${proposalId}/comments${query}`, by ? { token: by.token } : {});

describe('POST /proposals/{proposalId}/comments', () => {
  it('a member posts: 201 with the comment, stored as given', async () => {
    const s = await setup();
    const body = '**Yes** <script>alert(1)</script>\n\n- but [why](javascript:x)?';
    const res = await post(s.proposalId, s.member, { body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      proposalId: s.proposalId,
      parentId: null,
      depth: 0,
      authorAddress: s.member.wallet.address,
      body,
      createdAt: expect.any(String),
      edited: false,
      editedAt: null,
      deleted: false,
      hidden: false,
      hiddenReason: null,
      replyCount: 0,
      signature: null,
      typedData: null,
    });
  });

  it('refuses who may not write: anonymous 401, no wallet, a non-member, a wallet not theirs 403', async () => {
    const s = await setup();
    expect((await post(s.proposalId, null, { body: 'hi' })).status).toBe(401);
    const walletless = await activeUser(api);
    const a = await post(s.proposalId, walletless, { body: 'hi' });
    expect([a.status, a.body.reason]).toEqual([403, 'WALLET_REQUIRED']);
    const outsider = await memberUser(api);
    const b = await post(s.proposalId, outsider, { body: 'hi' });
    expect([b.status, b.body.reason]).toEqual([403, 'NOT_ELIGIBLE']);
    const c = await post(s.proposalId, s.member, { body: 'hi', actorAddress: newWallet().address });
    expect([c.status, c.body.reason]).toEqual([403, 'NOT_YOUR_ADDRESS']);
    expect((await thread(s.proposalId)).body.counts).toEqual({ comments: 0, topLevel: 0 });
  });

  it('a moderator who is not a member may write', async () => {
    const s = await setup();
    const mod = await memberUser(api);
    const role = await api.put(
      `/daos/${s.daoId}/roles/${mod.wallet.address}`,
      { role: 'moderator' },
      s.owner,
    );
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    await posted(s.proposalId, mod, { body: 'order, please' });
  });

  it('body: 1..10,000 characters, not blank; an unknown proposal 404', async () => {
    const s = await setup();
    for (const body of ['', '   \n', 'x'.repeat(10_001), 42]) {
      const res = await post(s.proposalId, s.member, { body });
      expect([res.status, res.body.reason], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await post(s.proposalId, s.member, { body: 'x'.repeat(10_000) })).status).toBe(201);
    const missing = await post('00000000-0000-4000-8000-000000000000', s.member, { body: 'hi' });
    expect(missing.status).toBe(404);
  });

  it('replies nest two levels; a third is 400 REPLY_TOO_DEEP; the parent must be in the proposal', async () => {
    const s = await setup();
    const root = await posted(s.proposalId, s.member, { body: 'root' });
    const reply = await posted(s.proposalId, s.owner, { body: 'reply', parentId: root.id });
    expect(reply).toMatchObject({ parentId: root.id, depth: 1 });
    const deep = await posted(s.proposalId, s.member, { body: 'reply 2', parentId: reply.id });
    expect(deep).toMatchObject({ parentId: reply.id, depth: 2 });
    const tooDeep = await post(s.proposalId, s.owner, { body: 'reply 3', parentId: deep.id });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toMatchObject({
      reason: 'REPLY_TOO_DEEP',
      message: expect.stringMatching(/2 levels/),
    });

    const other = await createProposal(api, s.owner, s.daoId, { title: 'Another' });
    const elsewhere = await post(other.proposalId, s.member, { body: 'x', parentId: root.id });
    expect([elsewhere.status, elsewhere.body.reason]).toEqual([400, 'PARENT_NOT_IN_PROPOSAL']);
    const unknown = await post(s.proposalId, s.member, {
      body: 'x',
      parentId: '00000000-0000-4000-8000-000000000000',
    });
    expect([unknown.status, unknown.body.reason]).toEqual([400, 'PARENT_NOT_IN_PROPOSAL']);
  });
});

describe('GET /proposals/{proposalId}/comments', () => {
  it('public: top level by page, newest or oldest first, replies in order under their parent, counts', async () => {
    const s = await setup();
    const a = await posted(s.proposalId, s.member, { body: 'a' });
    const b = await posted(s.proposalId, s.member, { body: 'b' });
    const c = await posted(s.proposalId, s.owner, { body: 'c' });
    const a1 = await posted(s.proposalId, s.owner, { body: 'a1', parentId: a.id });
    const a2 = await posted(s.proposalId, s.member, { body: 'a2', parentId: a.id });
    const a1x = await posted(s.proposalId, s.member, { body: 'a1x', parentId: a1.id });

    const oldest = await thread(s.proposalId);
    expect(oldest.status).toBe(200);
    expect(oldest.body.items.map((i: { id: string }) => i.id)).toEqual([a.id, b.id, c.id]);
    expect(oldest.body.counts).toEqual({ comments: 6, topLevel: 3 });
    expect(oldest.body.moderator).toBe(false);
    const first = oldest.body.items[0];
    expect(first.replyCount).toBe(2);
    expect(first.replies.map((r: { id: string }) => r.id)).toEqual([a1.id, a2.id]);
    expect(first.replies[0].replyCount).toBe(1);
    expect(first.replies[0].replies.map((r: { id: string }) => r.id)).toEqual([a1x.id]);

    const newest = await thread(s.proposalId, '?order=newest&limit=2');
    expect(newest.body.items.map((i: { id: string }) => i.id)).toEqual([c.id, b.id]);
    expect(newest.body.pagination).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    const page2 = await thread(s.proposalId, '?order=newest&limit=2&page=2');
    expect(page2.body.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
    expect(page2.body.items[0].replies).toHaveLength(2);

    expect((await thread(s.proposalId, '?order=sideways')).status).toBe(400);
    expect((await thread('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('PATCH and DELETE /comments/{commentId}', () => {
  it('the author edits: marked edited, earlier bodies kept for moderators only', async () => {
    const s = await setup();
    const c = await posted(s.proposalId, s.member, { body: 'first' });
    const e1 = await patch(c.id, s.member, { body: 'second' });
    expect(e1.status, JSON.stringify(e1.body)).toBe(200);
    expect(e1.body).toMatchObject({ body: 'second', edited: true, editedAt: expect.any(String) });
    expect((await patch(c.id, s.member, { body: 'third' })).status).toBe(200);

    const other = await patch(c.id, s.owner, { body: 'not yours' });
    expect([other.status, other.body.reason]).toEqual([403, 'NOT_COMMENT_AUTHOR']);
    expect((await patch(c.id, s.member, { body: '' })).status).toBe(400);
    expect((await patch('00000000-0000-4000-8000-000000000000', s.member, { body: 'x' })).status).toBe(404);

    const history = await api.get(`/comments/${c.id}/edits`, { token: s.owner.token });
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.items.map((i: { body: string }) => i.body)).toEqual(['first', 'second']);
    const refused = await api.get(`/comments/${c.id}/edits`, { token: s.member.token });
    expect([refused.status, refused.body.reason]).toEqual([403, 'NOT_DAO_ADMIN']);
    expect((await api.get(`/comments/${c.id}/edits`)).status).toBe(401);
    expect((await thread(s.proposalId)).body.items[0]).toMatchObject({ body: 'third', edited: true });
  });

  it('the author deletes: a tombstone keeps the replies; no edit after; others 403', async () => {
    const s = await setup();
    const c = await posted(s.proposalId, s.member, { body: 'gone soon' });
    const r = await posted(s.proposalId, s.owner, { body: 'reply', parentId: c.id });
    const refused = await api.delete(`/comments/${c.id}`, { token: s.owner.token });
    expect([refused.status, refused.body.reason]).toEqual([403, 'NOT_COMMENT_AUTHOR']);
    const del = await api.delete(`/comments/${c.id}`, { token: s.member.token });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ id: c.id, deleted: true, body: null, replyCount: 1 });
    const got = (await thread(s.proposalId)).body;
    expect(got.items[0]).toMatchObject({ id: c.id, deleted: true, body: null });
    expect(got.items[0].replies.map((x: { id: string }) => x.id)).toEqual([r.id]);
    const again = await patch(c.id, s.member, { body: 'back' });
    expect([again.status, again.body.reason]).toEqual([409, 'COMMENT_DELETED']);
    expect((await api.delete(`/comments/${c.id}`, { token: s.member.token })).status).toBe(409);
  });

  it('concurrent deletions: exactly one 200, every other 409 COMMENT_DELETED', async () => {
    const s = await setup();
    const c = await posted(s.proposalId, s.member, { body: 'once' });
    const res = await Promise.all(
      Array.from({ length: 10 }, () => api.delete(`/comments/${c.id}`, { token: s.member.token })),
    );
    expect(res.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = res.filter((r) => r.status === 409);
    expect(refused).toHaveLength(9);
    expect(new Set(refused.map((r) => r.body.reason))).toEqual(new Set(['COMMENT_DELETED']));
    const updates = await t.app.svc.db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.proposalId, s.proposalId), eq(events.type, 'comment_updated')));
    expect(updates.map((u) => (u.data as { change: string }).change)).toEqual(['deleted']);
  });

  it('concurrent edits: every accepted edit keeps exactly one earlier body', async () => {
    const s = await setup();
    const c = await posted(s.proposalId, s.member, { body: 'v0' });
    const res = await Promise.all(
      Array.from({ length: 12 }, (_, i) => patch(c.id, s.member, { body: `v${i + 1}` })),
    );
    expect(res.map((r) => r.status)).toEqual(Array(12).fill(200));
    const kept = await t.app.svc.db
      .select()
      .from(proposalCommentEdits)
      .where(eq(proposalCommentEdits.commentId, c.id))
      .orderBy(asc(proposalCommentEdits.id));
    expect(kept).toHaveLength(12);
    expect(kept[0]!.body).toBe('v0');
    // each body before an edit is the one the edit before it wrote: a chain without gaps or repeats
    const final = (await thread(s.proposalId)).body.items[0].body as string;
    const bodies = [...kept.map((k) => k.body), final];
    expect(new Set(bodies).size).toBe(13);
  });
});

describe('hiding', () => {
  it("the DAO's owner and moderators hide with a reason; readers see it hidden, moderators its text", async () => {
    const s = await setup();
    const mod = await memberUser(api);
    await api.put(`/daos/${s.daoId}/roles/${mod.wallet.address}`, { role: 'moderator' }, s.owner);
    const c = await posted(s.proposalId, s.member, { body: 'rude words' });

    const byMember = await api.post(`/comments/${c.id}/hide`, { reason: 'no' }, { token: s.member.token });
    expect([byMember.status, byMember.body.reason]).toEqual([403, 'NOT_DAO_ADMIN']);
    const noReason = await api.post(`/comments/${c.id}/hide`, {}, { token: mod.token });
    expect(noReason.status).toBe(400);

    const hid = await api.post(`/comments/${c.id}/hide`, { reason: 'insults' }, { token: mod.token });
    expect(hid.status, JSON.stringify(hid.body)).toBe(200);
    expect(hid.body).toMatchObject({ hidden: true, hiddenReason: 'insults', body: 'rude words' });

    const pub = (await thread(s.proposalId)).body.items[0];
    expect(pub).toMatchObject({ hidden: true, hiddenReason: 'insults', body: null });
    expect((await thread(s.proposalId, '', s.member)).body.items[0].body).toBeNull();
    const asOwner = (await thread(s.proposalId, '', s.owner)).body;
    expect(asOwner.moderator).toBe(true);
    expect(asOwner.items[0]).toMatchObject({ hidden: true, body: 'rude words' });

    const un = await api.post(`/comments/${c.id}/unhide`, {}, { token: s.owner.token });
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    expect((await thread(s.proposalId)).body.items[0]).toMatchObject({
      hidden: false,
      hiddenReason: null,
      body: 'rude words',
    });
    expect(
      (
        await api.post(
          '/comments/00000000-0000-4000-8000-000000000000/hide',
          { reason: 'x' },
          { token: s.owner.token },
        )
      ).status,
    ).toBe(404);
  });
});

describe('live events', () => {
  it('comment_posted and comment_updated arrive on the stream, stored and without hidden text', async () => {
    const s = await setup();
    const sub = trpcSubscriber(t, s.member.token, { proposalId: s.proposalId });
    await subscribed(t, { proposalId: s.proposalId });
    const c = await posted(s.proposalId, s.member, { body: 'live' });
    expect((await patch(c.id, s.member, { body: 'live, edited' })).status).toBe(200);
    expect(
      (await api.post(`/comments/${c.id}/hide`, { reason: 'spam' }, { token: s.owner.token })).status,
    ).toBe(200);
    const got = await sub.waitFor(3);
    sub.close();
    expect(got.map((e) => [e.type, (e.data as { change?: string }).change])).toEqual([
      ['comment_posted', undefined],
      ['comment_updated', 'edited'],
      ['comment_updated', 'hidden'],
    ]);
    expect(got[0]).toMatchObject({
      daoId: s.daoId,
      proposalId: s.proposalId,
      data: { comment: { id: c.id, body: 'live' } },
    });
    expect(got[2]!.data).toMatchObject({ comment: { hidden: true, body: null, hiddenReason: 'spam' } });
    const stored = await t.app.svc.db
      .select({ type: events.type })
      .from(events)
      .where(
        and(eq(events.proposalId, s.proposalId), inArray(events.type, ['comment_posted', 'comment_updated'])),
      );
    expect(stored).toHaveLength(3);
  });
});

describe('rate limit', () => {
  let limited: TestApp;
  let lapi: ApiClient;
  beforeAll(async () => {
    limited = await startTestApp({ env: { COMMENTS_PER_MINUTE: '5' } });
    lapi = apiClient(limited.url);
  });
  afterAll(() => limited.close());

  it('20 posts at once by one account: exactly 5 accepted, the rest 429 RATE_LIMITED; another account unaffected', async () => {
    const owner = await memberUser(lapi);
    const dao = await createDao(lapi, owner);
    const member = await memberUser(lapi);
    await addMember(lapi, owner, dao.daoId, member.wallet.address);
    const p = await createProposal(lapi, owner, dao.daoId);
    const res = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lapi.post(`/proposals/${p.proposalId}/comments`, { body: `#${i}` }, { token: member.token }),
      ),
    );
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(15);
    const refused = res.find((r) => r.status === 429)!;
    expect(refused.body.reason).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const list = await lapi.get(`/proposals/${p.proposalId}/comments`);
    expect(list.body.counts.comments).toBe(5);
    const other = await lapi.post(
      `/proposals/${p.proposalId}/comments`,
      { body: 'mine' },
      { token: owner.token },
    );
    expect(other.status).toBe(201);
  });
});
