import { ManualClock } from '@plenum/core';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser, newWallet } from './support/factories';
import { addMember, createDao, createProposal, signedVote, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Cursor paging (docs/api.md, "Lists") of the two lists that grow to a million rows: a DAO's members and
 * a proposal's votes. A walk by `after` gives every row once, ties on the time broken by the address or
 * the id, also while rows are added during it; a cursor of another list or order, or none at all, is a
 * 400 on `after`; `page` keeps working beside it; the member count kept by triggers stays exact.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2031-06-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

type Pagination = {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  nextCursor: string | null;
};
type Page<T> = { items: T[]; pagination: Pagination };
type Member = { memberAddress: string; addedAt: string };
type Vote = { voteId: string; voterAddress: string; createdAt: string };

const get = async <T>(path: string) => {
  const res = await api.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page<T>;
};

/** every page by `after`, calling `between` after each page (rows added during the walk) */
async function walk<T>(
  path: string,
  limit: number,
  between: (page: number) => Promise<void> = async () => {},
) {
  const sep = path.includes('?') ? '&' : '?';
  const items: T[] = [];
  let body = await get<T>(`${path}${sep}limit=${limit}`);
  for (let n = 1; ; n++) {
    items.push(...body.items);
    expect(body.items.length, 'only the last page is short').toBe(
      body.pagination.nextCursor === null ? body.items.length : limit,
    );
    if (body.pagination.nextCursor === null) return items;
    await between(n);
    body = await get<T>(
      `${path}${sep}limit=${limit}&after=${encodeURIComponent(body.pagination.nextCursor)}`,
    );
  }
}

describe('GET /daos/{daoId}/members by cursor', () => {
  it('walks every member once, newest first, ties broken by the address, while members are added', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 1, tokenWeighted: false });
    // three groups of members, each added at one instant: equal addedAt
    for (let g = 0; g < 3; g++) {
      clock.advance(1_000);
      for (let i = 0; i < 4; i++) await addMember(api, owner, dao.daoId, newWallet().address);
    }
    const all = await get<Member>(`/daos/${dao.daoId}/members?limit=200`);
    expect(all.pagination.total).toBe(13);
    expect(all.pagination.nextCursor).toBeNull();
    const expected = all.items.map((m) => m.memberAddress);
    // the order the cursor follows: addedAt, then the address, both descending
    const sorted = [...all.items]
      .sort((x, y) =>
        x.addedAt === y.addedAt
          ? x.memberAddress < y.memberAddress
            ? 1
            : -1
          : x.addedAt < y.addedAt
            ? 1
            : -1,
      )
      .map((m) => m.memberAddress);
    expect(expected).toEqual(sorted);

    for (const limit of [1, 3, 4, 5, 13]) {
      const walked = (await walk<Member>(`/daos/${dao.daoId}/members`, limit)).map((m) => m.memberAddress);
      expect(walked, `by ${limit}`).toEqual(expected);
    }
    // `page` still pages by offset, and carries the cursor of its last row
    const page2 = await get<Member>(`/daos/${dao.daoId}/members?limit=4&page=2`);
    expect(page2.items.map((m) => m.memberAddress)).toEqual(expected.slice(4, 8));
    const page3 = await get<Member>(
      `/daos/${dao.daoId}/members?limit=4&after=${encodeURIComponent(page2.pagination.nextCursor!)}`,
    );
    expect(page3.items.map((m) => m.memberAddress)).toEqual(expected.slice(8, 12));
    expect(page3.pagination).toMatchObject({ total: 13, page: 1, limit: 4, totalPages: 4 });

    // members added between pages are newer: a walk begun before them gives exactly the earlier ones
    const added: string[] = [];
    const walked = await walk<Member>(`/daos/${dao.daoId}/members`, 2, async () => {
      clock.advance(1_000);
      const w = newWallet().address;
      await addMember(api, owner, dao.daoId, w);
      added.push(w);
    });
    expect(walked.map((m) => m.memberAddress)).toEqual(expected);
    const after = await get<Member>(`/daos/${dao.daoId}/members?limit=200`);
    expect(after.pagination.total).toBe(13 + added.length);
    expect(after.items.slice(0, added.length).map((m) => m.memberAddress)).toEqual([...added].reverse());
  });

  it('keeps the member count exact through adds and removals (a count kept by triggers)', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 1, tokenWeighted: false });
    const wallets = [newWallet(), newWallet(), newWallet()];
    // added at once: each statement's trigger counts its own rows
    await Promise.all(wallets.map((w) => addMember(api, owner, dao.daoId, w.address)));
    const count = async () => ({
      list: (await get<Member>(`/daos/${dao.daoId}/members`)).pagination.total,
      dao: (await api.get(`/daos/${dao.daoId}`)).body.memberCount as number,
      daos: (
        (await api.get(`/daos/owner/${owner.wallet.address}`)).body.items as { memberCount: number }[]
      )[0]!.memberCount,
    });
    expect(await count()).toEqual({ list: 4, dao: 4, daos: 4 });
    const removed = await api.delete(`/daos/${dao.daoId}/members/${wallets[0]!.address}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect(await count()).toEqual({ list: 3, dao: 3, daos: 3 });
    // a refused duplicate leaves it as it was
    const again = await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: wallets[1]!.address },
      { token: owner.token },
    );
    expect(again.status).toBe(409);
    expect(await count()).toEqual({ list: 3, dao: 3, daos: 3 });
  });
});

describe('GET /votes/proposal/{proposalId} by cursor', () => {
  /** a DAO of `n` wallet members and an open proposal */
  async function proposalOf(n: number) {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 0, tokenWeighted: true });
    const wallets = await walletMembers(api, owner, dao.daoId, n);
    for (const [i, w] of wallets.entries())
      await api.put(
        `/daos/${dao.daoId}/members/${w.address}`,
        { tokenBalance: String((i % 3) + 1) },
        { token: owner.token },
      );
    const p = await createProposal(api, owner, dao.daoId);
    return { daoId: dao.daoId, proposalId: p.proposalId, wallets };
  }
  async function vote(p: { daoId: string; proposalId: string }, w: PrivateKeyAccount) {
    const body = await signedVote(w, { daoId: p.daoId, proposalId: p.proposalId, choice: 'For' }, nowS());
    const res = await api.post('/votes', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Vote;
  }

  it('walks every vote once in each order, ties broken by the id, while votes are cast', async () => {
    const p = await proposalOf(12);
    // groups of votes in one instant: equal createdAt
    for (const [i, w] of p.wallets.slice(0, 9).entries()) {
      if (i % 3 === 0) clock.advance(2_000);
      await vote(p, w);
    }
    for (const sort of ['newest', 'oldest', 'weight']) {
      const byPage = (await get<Vote>(`/votes/proposal/${p.proposalId}?sort=${sort}&limit=200`)).items.map(
        (v) => v.voteId,
      );
      expect(byPage).toHaveLength(9);
      for (const limit of [1, 2, 4, 9]) {
        const walked = await walk<Vote>(`/votes/proposal/${p.proposalId}?sort=${sort}`, limit);
        expect(
          walked.map((v) => v.voteId),
          `${sort} by ${limit}`,
        ).toEqual(byPage);
      }
    }

    // votes cast during a walk: newest first a walk gives exactly the earlier votes, oldest first it
    // gives them too, then the new ones at the end
    const before = (await get<Vote>(`/votes/proposal/${p.proposalId}?sort=oldest&limit=200`)).items.map(
      (v) => v.voteId,
    );
    const late = p.wallets.slice(9);
    const cast: string[] = [];
    const castOne = async () => {
      const w = late.shift();
      if (!w) return;
      clock.advance(1_000);
      cast.push((await vote(p, w)).voteId);
    };
    const newest = await walk<Vote>(`/votes/proposal/${p.proposalId}`, 4, castOne);
    expect(newest.map((v) => v.voteId)).toEqual([...before].reverse());
    const oldest = await walk<Vote>(`/votes/proposal/${p.proposalId}?sort=oldest`, 4, castOne);
    const ids = oldest.map((v) => v.voteId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, before.length)).toEqual(before);
    expect(cast.length).toBeGreaterThan(0);
    expect(ids.slice(before.length)).toEqual(cast.filter((id) => ids.includes(id)));
    // whatever was cast before the walk's last page was read is in it
    expect(ids.length).toBeGreaterThanOrEqual(before.length + cast.length - 1);
  });

  it('refuses a malformed or foreign cursor, and page beside after, with a 400 on the field', async () => {
    const p = await proposalOf(3);
    for (const w of p.wallets) {
      clock.advance(1_000);
      await vote(p, w);
    }
    const other = await proposalOf(2);
    for (const w of other.wallets) await vote(other, w);
    const cursorOf = async (path: string) => (await get<Vote>(path)).pagination.nextCursor!;
    const own = await cursorOf(`/votes/proposal/${p.proposalId}?limit=1`);
    const otherProposal = await cursorOf(`/votes/proposal/${other.proposalId}?limit=1`);
    const otherOrder = await cursorOf(`/votes/proposal/${p.proposalId}?limit=1&sort=oldest`);
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 1, tokenWeighted: false });
    await addMember(api, owner, dao.daoId, newWallet().address);
    const memberCursor = await cursorOf(`/daos/${dao.daoId}/members?limit=1`);
    const forged = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
    const [listName, , id] = JSON.parse(Buffer.from(own, 'base64url').toString()) as string[];

    const cases: [string, string, string][] = [
      [`/votes/proposal/${p.proposalId}?after=${otherProposal}`, 'after', 'invalid_format'],
      [`/votes/proposal/${p.proposalId}?after=${otherOrder}`, 'after', 'invalid_format'],
      [`/votes/proposal/${p.proposalId}?after=${memberCursor}`, 'after', 'invalid_format'],
      [`/daos/${dao.daoId}/members?after=${own}`, 'after', 'invalid_format'],
      [`/votes/proposal/${p.proposalId}?after=not-a-cursor`, 'after', 'invalid_format'],
      [`/votes/proposal/${p.proposalId}?after=%21%21%21`, 'after', 'invalid_format'],
      [
        `/votes/proposal/${p.proposalId}?after=${forged([listName, 'yesterday', id])}`,
        'after',
        'invalid_format',
      ],
      [
        `/votes/proposal/${p.proposalId}?after=${forged([listName, '2031-13-45T99:99:99.000000Z', id])}`,
        'after',
        'invalid_format',
      ],
      [
        `/votes/proposal/${p.proposalId}?after=${forged([listName, '2031-06-01T00:00:00.000000Z', 'x'])}`,
        'after',
        'invalid_format',
      ],
      [`/votes/proposal/${p.proposalId}?after=${forged({ a: 1 } as never)}`, 'after', 'invalid_format'],
      [
        `/daos/${dao.daoId}/members?after=${forged([`members:${dao.daoId}`, '2031-06-01T00:00:00.000000Z', 1])}`,
        'after',
        'invalid_format',
      ],
      [`/votes/proposal/${p.proposalId}?after=${own}&page=2`, 'page', 'invalid_value'],
      [`/votes/proposal/${p.proposalId}?after=${'a'.repeat(1001)}`, 'after', 'too_big'],
    ];
    for (const [path, field, code] of cases) {
      const res = await api.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ code: 'BAD_REQUEST', reason: 'VALIDATION_FAILED' });
      expect(res.body.issues, path).toEqual([expect.objectContaining({ path: field, code })]);
      if (code === 'invalid_format') expect(res.body.issues[0].params, path).toEqual({ format: 'cursor' });
      expect(JSON.stringify(res.body)).not.toContain('stack');
    }
    // the same cursor twice is the same page
    const a = await get<Vote>(`/votes/proposal/${p.proposalId}?limit=1&after=${own}`);
    const b = await get<Vote>(`/votes/proposal/${p.proposalId}?limit=1&after=${own}`);
    expect(a.items).toEqual(b.items);
    expect(a.items).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('documents after and nextCursor on both lists', async () => {
    const doc = (await api.get('/api/docs-json')).body;
    for (const path of ['/daos/{daoId}/members', '/votes/proposal/{proposalId}']) {
      const params = doc.paths[path].get.parameters as { name: string; in: string }[];
      expect(params.find((q) => q.name === 'after')?.in, path).toBe('query');
      const pagination =
        doc.paths[path].get.responses['200'].content['application/json'].schema.properties.pagination;
      expect(pagination.properties.nextCursor, path).toBeDefined();
      expect(pagination.required, path).toContain('nextCursor');
    }
  });
});
