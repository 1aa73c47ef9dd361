import { type Anvil, deployToken, startAnvil } from '@plenum/contracts';
import { ManualClock } from '@plenum/core';
import { events, governanceHistory } from '@plenum/db';
import { and, count, eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, memberUser, newWallet } from './support/factories';
import { addMember, createDao, createProposal, type Member, tick } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Editing a DAO (docs/governance.md, "Changing the rules", "History"): name, description and any subset of
 * the voting rules by the owner or an admin, checked whole as at creation; each edit one history entry and
 * one dao_updated event; a running proposal keeps the rules it was created with; concurrent edits all land,
 * in order.
 */
let anvil: Anvil;
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2031-03-01T00:00:00Z'));
const HOUR = 3_600_000;

beforeAll(async () => {
  anvil = await startAnvil();
  t = await startTestApp({ clock, env: { CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}` } });
  api = apiClient(t.url);
});
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

const rules = { threshold: 50, minVotingPeriod: 0, tokenWeighted: false };
const patch = (daoId: string, body: unknown, token?: string) =>
  api.request('PATCH', `/daos/${daoId}`, body, token ? { token } : {});
const history = async (daoId: string, query = '') => {
  const res = await api.get(`/daos/${daoId}/history${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    items: {
      changedAt: string;
      actorAddress: string | null;
      changes: Record<string, { from: unknown; to: unknown }>;
    }[];
    pagination: { total: number };
  };
};
async function updatedEvents(daoId: string) {
  return t.app.svc.db
    .select()
    .from(events)
    .where(and(eq(events.daoId, daoId), eq(events.type, 'dao_updated')))
    .orderBy(events.id);
}
async function historyCount(daoId: string) {
  const [row] = await t.app.svc.db
    .select({ n: count() })
    .from(governanceHistory)
    .where(eq(governanceHistory.daoId, daoId));
  return Number(row!.n);
}
async function grant(owner: Member, daoId: string, address: string, role: string) {
  const res = await api.put(`/daos/${daoId}/roles/${address}`, { role }, { token: owner.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('PATCH /daos/{daoId}', () => {
  it('the owner edits name, description and some rules: 200 with the DAO, one history entry, one event', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    clock.advance(1_000);
    const res = await patch(
      dao.daoId,
      { name: 'Renamed', description: 'New words', votingRules: { quorum: 20, allowVoteChange: true } },
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      daoId: dao.daoId,
      name: 'Renamed',
      description: 'New words',
      votingRules: { threshold: 50, quorum: 20, allowVoteChange: true, resultsVisibility: 'live' },
      members: [owner.wallet.address],
      roles: [],
    });
    expect(res.body.updatedAt).toBe(clock.now().toISOString());
    expect((await api.get(`/daos/${dao.daoId}`)).body).toEqual(res.body);

    const h = await history(dao.daoId);
    expect(h.pagination.total).toBe(1);
    const changes = {
      name: { from: dao.name, to: 'Renamed' },
      description: { from: '', to: 'New words' },
      'votingRules.quorum': { from: 0, to: 20 },
      'votingRules.allowVoteChange': { from: false, to: true },
    };
    expect(h.items).toEqual([
      { changedAt: clock.now().toISOString(), actorAddress: owner.wallet.address, changes },
    ]);
    const evs = await updatedEvents(dao.daoId);
    expect(evs).toHaveLength(1);
    expect(evs[0]!.data).toEqual({ daoId: dao.daoId, actorAddress: owner.wallet.address, changes });
  });

  it('an edit that changes nothing is a 200 that writes no entry and no event', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { ...rules, quorum: 10 });
    const same = await patch(
      dao.daoId,
      { name: dao.name, votingRules: { threshold: 50, quorum: 10 } },
      owner.token,
    );
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.updatedAt).toBe(dao.updatedAt);
    expect((await patch(dao.daoId, {}, owner.token)).status).toBe(200);
    expect(await historyCount(dao.daoId)).toBe(0);
    expect(await updatedEvents(dao.daoId)).toHaveLength(0);
  });

  it('history is newest first and paged', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    for (const q of [5, 6, 7]) {
      clock.advance(1_000);
      expect((await patch(dao.daoId, { votingRules: { quorum: q } }, owner.token)).status).toBe(200);
    }
    const all = await history(dao.daoId);
    expect(all.items.map((e) => e.changes['votingRules.quorum']!.to)).toEqual([7, 6, 5]);
    const second = await history(dao.daoId, '?page=2&limit=1');
    expect(second.items.map((e) => e.changes['votingRules.quorum'])).toEqual([{ from: 5, to: 6 }]);
    expect(second.pagination.total).toBe(3);
  });

  it('a patch keeps every rule it does not name', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, {
      threshold: 50,
      minVotingPeriod: 2,
      quorum: 10,
      resultsVisibility: 'after-end',
      allowVoteChange: true,
      proposers: 'authors',
      maxActiveProposalsPerAuthor: 2,
    });
    const res = await patch(dao.daoId, { votingRules: { threshold: 60 } }, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.votingRules).toEqual({ ...(dao.votingRules as object), threshold: 60 });
    expect((await history(dao.daoId)).items[0]!.changes).toEqual({
      'votingRules.threshold': { from: 50, to: 60 },
    });
  });

  it('null clears an optional rule', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { ...rules, maxActiveProposalsPerAuthor: 3 });
    const res = await patch(dao.daoId, { votingRules: { maxActiveProposalsPerAuthor: null } }, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.votingRules.maxActiveProposalsPerAuthor).toBeNull();
    expect((await history(dao.daoId)).items[0]!.changes).toEqual({
      'votingRules.maxActiveProposalsPerAuthor': { from: 3, to: null },
    });
  });

  it('an admin may edit; a moderator, an author, a member and a stranger may not (403 NOT_DAO_ADMIN)', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const [admin, moderator, author, member, stranger] = await Promise.all(
      Array.from({ length: 5 }, () => memberUser(api)),
    );
    await grant(owner, dao.daoId, admin!.wallet.address, 'admin');
    await grant(owner, dao.daoId, moderator!.wallet.address, 'moderator');
    await grant(owner, dao.daoId, author!.wallet.address, 'author');
    await addMember(api, owner, dao.daoId, member!.wallet.address);
    for (const who of [moderator!, author!, member!, stranger!]) {
      const res = await patch(dao.daoId, { name: 'Taken over' }, who.token);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', reason: 'NOT_DAO_ADMIN' });
    }
    const byAdmin = await patch(dao.daoId, { name: 'By the admin' }, admin!.token);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect((await history(dao.daoId)).items[0]).toMatchObject({
      actorAddress: admin!.wallet.address,
      changes: { name: { from: dao.name, to: 'By the admin' } },
    });
    // the name is unchanged by every refusal
    expect((await api.get(`/daos/${dao.daoId}`)).body.name).toBe('By the admin');
  });

  it('acts through the wallet named in actorAddress, which must be the caller’s', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const second = await linkWallet(api, owner);
    // the owner's second wallet holds no role: acting through it is refused
    const through = await patch(dao.daoId, { name: 'x', actorAddress: second.address }, owner.token);
    expect(through.status).toBe(403);
    expect(through.body.reason).toBe('NOT_DAO_ADMIN');
    const notMine = await patch(dao.daoId, { name: 'x', actorAddress: newWallet().address }, owner.token);
    expect(notMine.status).toBe(403);
    expect(notMine.body.reason).toBe('NOT_YOUR_ADDRESS');
    const named = await patch(dao.daoId, { name: 'y', actorAddress: owner.wallet.address }, owner.token);
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    // without actorAddress the wallet that may edit acts
    const auto = await patch(dao.daoId, { name: 'z' }, owner.token);
    expect(auto.status).toBe(200);
    expect((await history(dao.daoId)).items.map((e) => e.actorAddress)).toEqual([
      owner.wallet.address,
      owner.wallet.address,
    ]);
  });

  it('401 signed out, 404 for an unknown DAO (and its history)', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    expect((await patch(dao.daoId, { name: 'x' })).status).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await patch(unknown, { name: 'x' }, owner.token)).status).toBe(404);
    expect((await api.get(`/daos/${unknown}/history`)).status).toBe(404);
    expect((await api.get('/daos/not-a-uuid/history')).status).toBe(400);
  });

  it.each([
    ['threshold 0', { votingRules: { threshold: 0 } }, 'votingRules.threshold'],
    ['quorum 120', { votingRules: { quorum: 120 } }, 'votingRules.quorum'],
    ['threshold as a string', { votingRules: { threshold: '60' } }, 'votingRules.threshold'],
    ['an unknown rule', { votingRules: { owner: 'me' } }, 'votingRules'],
    ['an unknown field', { status: 'ACTIVE' }, ''],
    ['an empty name', { name: '  ' }, 'name'],
    // valid alone, invalid laid over the DAO's rules: checked whole as at creation
    [
      'token-holders without a token',
      { votingRules: { membership: 'token-holders' } },
      'votingRules.membership',
    ],
    ['minWeight without token-holders', { votingRules: { minWeight: '5' } }, 'votingRules.minWeight'],
    ['proposers holders without a token', { votingRules: { proposers: 'holders' } }, 'votingRules.proposers'],
    [
      'proposalThreshold without holders',
      { votingRules: { proposalThreshold: '1' } },
      'votingRules.proposalThreshold',
    ],
  ])('400 for %s, and nothing changes', async (_name, body, field) => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const res = await patch(dao.daoId, { name: 'Changed too', ...body }, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(res.body.reason).toBe('VALIDATION_FAILED');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
    const after = (await api.get(`/daos/${dao.daoId}`)).body;
    expect(after.name).toBe(dao.name);
    expect(after.votingRules).toEqual(dao.votingRules);
    expect(await historyCount(dao.daoId)).toBe(0);
  });

  it('a new token is checked on its chain first (400 TOKEN_NOT_FOUND, CHAIN_NOT_CONFIGURED); null removes it', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const missing = await patch(
      dao.daoId,
      { votingRules: { token: { chainId: anvil.chainId, address: newWallet().address, standard: 'erc20' } } },
      owner.token,
    );
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(missing.body.reason).toBe('TOKEN_NOT_FOUND');
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Garden', symbol: 'GRDN' });
    const unknownChain = await patch(
      dao.daoId,
      { votingRules: { token: { chainId: 999_999, address: token, standard: 'erc20' } } },
      owner.token,
    );
    expect(unknownChain.status).toBe(400);
    expect(unknownChain.body.reason).toBe('CHAIN_NOT_CONFIGURED');
    expect(await historyCount(dao.daoId)).toBe(0);

    const set = await patch(
      dao.daoId,
      {
        votingRules: {
          token: { chainId: anvil.chainId, address: token.toLowerCase(), standard: 'erc20' },
          tokenWeighted: true,
          membership: 'token-holders',
        },
      },
      owner.token,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const described = {
      chainId: anvil.chainId,
      address: getAddress(token),
      standard: 'erc20',
      symbol: 'GRDN',
      decimals: 18,
    };
    expect(set.body.votingRules).toMatchObject({
      token: described,
      tokenWeighted: true,
      membership: 'token-holders',
    });
    // the same token again (and another rule) keeps what the chain told
    const again = await patch(
      dao.daoId,
      { votingRules: { token: { chainId: anvil.chainId, address: token, standard: 'erc20' }, quorum: 5 } },
      owner.token,
    );
    expect(again.status).toBe(200);
    expect(again.body.votingRules.token).toEqual(described);
    expect(Object.keys((await history(dao.daoId)).items[0]!.changes)).toEqual(['votingRules.quorum']);
    // the token cannot go while token-holders needs it; with members it can
    const bad = await patch(dao.daoId, { votingRules: { token: null } }, owner.token);
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toContain('votingRules.membership');
    const cleared = await patch(
      dao.daoId,
      { votingRules: { token: null, membership: 'members', tokenWeighted: false } },
      owner.token,
    );
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.votingRules).toMatchObject({
      token: null,
      tokenWeighted: false,
      membership: 'members',
    });
    expect((await history(dao.daoId)).items[0]!.changes['votingRules.token']).toEqual({
      from: described,
      to: null,
    });
  });

  it('over tRPC too', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const res = await api.post(
      '/trpc/governance.settings.update',
      { daoId: dao.daoId, votingRules: { threshold: 66 } },
      { token: owner.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.data.votingRules.threshold).toBe(66);
  });
});

describe('rules bind proposals created after the change', () => {
  it('a running proposal keeps its threshold, quorum, visibility and vote-change rule; a later one gets the new', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, {
      ...rules,
      quorum: 0,
      resultsVisibility: 'live',
      allowVoteChange: false,
    });
    const voters = await Promise.all(Array.from({ length: 4 }, () => memberUser(api)));
    for (const v of voters) await addMember(api, owner, dao.daoId, v.wallet.address);
    const running = await createProposal(api, owner, dao.daoId, { votingDurationHours: 24 });
    const vote = (v: Member, proposalId: string, choice: string) =>
      api.post(
        '/votes',
        { proposalId, daoId: dao.daoId, voterAddress: v.wallet.address, choice },
        { token: v.token },
      );
    for (const [i, choice] of ['For', 'For', 'Against'].entries())
      expect((await vote(voters[i]!, running.proposalId, choice)).status).toBe(201);

    const edited = await patch(
      dao.daoId,
      { votingRules: { threshold: 80, quorum: 90, resultsVisibility: 'after-end', allowVoteChange: true } },
      owner.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    // the running proposal shows and follows its own copy
    const got = (await api.get(`/proposals/${running.proposalId}`)).body;
    expect(got.votingRules).toMatchObject({
      threshold: 50,
      quorum: 0,
      resultsVisibility: 'live',
      allowVoteChange: false,
    });
    const results = (await api.get(`/votes/proposal/${running.proposalId}/results`)).body;
    expect(results).toMatchObject({ hidden: false, threshold: 50, passing: true, totalVotes: 3 });
    const change = await vote(voters[0]!, running.proposalId, 'Against');
    expect(change.status).toBe(409);
    expect(change.body.reason).toBe('ALREADY_VOTED');

    // a proposal created after: the new rules
    const later = await createProposal(api, owner, dao.daoId, { votingDurationHours: 48 });
    expect(later.votingRules).toMatchObject({
      threshold: 80,
      quorum: 90,
      resultsVisibility: 'after-end',
      allowVoteChange: true,
    });
    expect((await vote(voters[0]!, later.proposalId, 'For')).status).toBe(201);
    expect((await api.get(`/votes/proposal/${later.proposalId}/results`)).body.hidden).toBe(true);
    expect((await vote(voters[0]!, later.proposalId, 'Against')).status).toBe(201);

    // the outcome by the copy: 2 of 3 For (67% > 50) with no quorum passes; 80% or a 90% quorum would not
    clock.advance(25 * HOUR);
    await tick(t);
    expect((await api.get(`/proposals/${running.proposalId}`)).body.status).toBe('PASSED');
  });
});

describe('two admins editing at once', () => {
  it('every edit lands, in order: each history entry starts from what the one before left', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, rules);
    const admin = await memberUser(api);
    await grant(owner, dao.daoId, admin.wallet.address, 'admin');
    const n = 16;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        patch(
          dao.daoId,
          { description: `edit ${i}`, votingRules: { quorum: i + 1 } },
          (i % 2 ? admin : owner).token,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
    const entries = (await history(dao.daoId, '?limit=200')).items
      .filter((e) => e.changes.description)
      .reverse();
    expect(entries).toHaveLength(n);
    let description = '';
    let quorum = 0;
    for (const e of entries) {
      expect(e.changes.description!.from).toBe(description);
      expect(e.changes['votingRules.quorum']!.from).toBe(quorum);
      description = e.changes.description!.to as string;
      quorum = e.changes['votingRules.quorum']!.to as number;
    }
    const final = (await api.get(`/daos/${dao.daoId}`)).body;
    expect(final.description).toBe(description);
    expect(final.votingRules.quorum).toBe(quorum);
    expect(new Set(entries.map((e) => e.changes.description!.to)).size).toBe(n);
    const evs = await updatedEvents(dao.daoId);
    // the one role grant and the n edits
    expect(evs).toHaveLength(n + 1);
  });
});

describe('status changes are in the history', () => {
  let t2: TestApp;
  let api2: ApiClient;
  beforeAll(async () => {
    t2 = await startTestApp({ env: { DAO_APPROVAL_REQUIRED: 'true', ADMIN_EMAILS: 'chief@example.org' } });
    api2 = apiClient(t2.url);
  });
  afterAll(() => t2?.close());

  it('approval, and each switch by the owner or a platform admin (who acts with no address)', async () => {
    const owner = await memberUser(api2);
    const dao = await createDao(api2, owner, rules);
    const admin = await activeUser(api2, { email: 'chief@example.org' });
    expect(
      (await api2.post(`/admin/daos/${dao.daoId}/approve`, undefined, { token: admin.token })).status,
    ).toBe(200);
    const status = (by: { token: string }, to: string) =>
      api2.post(`/daos/${dao.daoId}/status`, { status: to }, { token: by.token });
    expect((await status(owner, 'INACTIVE')).status).toBe(200);
    // the status it already has: nothing recorded
    expect((await status(owner, 'INACTIVE')).status).toBe(200);
    expect((await status(admin, 'ACTIVE')).status).toBe(200);
    const h = (await api2.get(`/daos/${dao.daoId}/history`)).body;
    expect(
      h.items.map((e: { actorAddress: string | null; changes: unknown }) => [e.actorAddress, e.changes]),
    ).toEqual([
      [null, { status: { from: 'INACTIVE', to: 'ACTIVE' } }],
      [owner.wallet.address, { status: { from: 'ACTIVE', to: 'INACTIVE' } }],
      [null, { status: { from: 'PENDING', to: 'ACTIVE' } }],
    ]);
  });
});
