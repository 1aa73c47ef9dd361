import { type Anvil, deployToken, mint, startAnvil } from '@plenum/contracts';
import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, daoWithMembers, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { cancel, grantRole, query } from './support/proposal-lifecycle';

/**
 * Who may propose (docs/governance.md, "Who may propose"): votingRules.proposers members | authors |
 * holders (read from a real chain: Foundry's anvil), maxActiveProposalsPerAuthor (also with many creates
 * at once), and the permissions read, which gives the same answer as POST /proposals.
 */

const HOUR = 3_600_000;
const clock = new ManualClock(Date.parse('2031-07-01T00:00:00Z'));
const units = (n: number) => parseUnits(String(n), 18);
let anvil: Anvil;
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  anvil = await startAnvil();
  t = await startTestApp({
    clock,
    env: { CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}`, CHAIN_RPC_TIMEOUT: '2000' },
  });
  api = apiClient(t.url);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

const propose = (who: Member, daoId: string, extra: Record<string, unknown> = {}) =>
  api.post(
    '/proposals',
    {
      daoId,
      title: 'A proposal',
      creatorAddress: who.wallet.address,
      votingDurationHours: 24,
      ...extra,
    },
    { token: who.token },
  );

const permissions = async (daoId: string, address: string) => {
  const res = await api.get(`/daos/${daoId}/permissions/${address}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Record<string, unknown>;
};

describe('proposers', () => {
  it('members (the default): a member may, anyone else is 403 NOT_A_MEMBER; the permissions read agrees', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const stranger = await memberUser(api);
    expect((await propose(members[0]!, dao.daoId)).status).toBe(201);
    expect((await propose(owner, dao.daoId)).status).toBe(201);
    const refused = await propose(stranger, dao.daoId);
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('NOT_A_MEMBER');
    expect(await permissions(dao.daoId, stranger.wallet.address)).toMatchObject({
      role: null,
      member: false,
      propose: false,
      proposeRefusal: 'NOT_A_MEMBER',
    });
    expect(await permissions(dao.daoId, members[0]!.wallet.address)).toMatchObject({
      member: true,
      propose: true,
      proposeRefusal: null,
    });
  });

  it('authors: the owner, admins and authors (members or not); members and moderators are 403 NOT_AN_AUTHOR', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, proposers: 'authors' });
    expect(dao.votingRules).toMatchObject({ proposers: 'authors' });
    const [member, admin, moderator, author] = await Promise.all([
      memberUser(api),
      memberUser(api),
      memberUser(api),
      memberUser(api),
    ]);
    await addMember(api, owner, dao.daoId, member.wallet.address);
    await grantRole(t, dao.daoId, admin.wallet.address, 'admin');
    await grantRole(t, dao.daoId, moderator.wallet.address, 'moderator');
    await grantRole(t, dao.daoId, author.wallet.address, 'author');
    for (const who of [owner, admin, author]) {
      const res = await propose(who, dao.daoId);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.votingRules).toMatchObject({ proposers: 'authors' });
      expect(await permissions(dao.daoId, who.wallet.address)).toMatchObject({ propose: true });
    }
    for (const who of [member, moderator]) {
      const res = await propose(who, dao.daoId);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ reason: 'NOT_ALLOWED_TO_PROPOSE', detail: 'NOT_AN_AUTHOR' });
      expect(await permissions(dao.daoId, who.wallet.address)).toMatchObject({
        propose: false,
        proposeRefusal: 'NOT_AN_AUTHOR',
      });
    }
  });

  it('holders: weight at the newest block ≥ proposalThreshold, members or not; below is 403 BELOW_PROPOSAL_THRESHOLD', async () => {
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Seed', symbol: 'SEED' });
    const owner = await memberUser(api);
    const [rich, poor, none] = await Promise.all([memberUser(api), memberUser(api), memberUser(api)]);
    await mint(anvil, token, rich.wallet.address, units(10));
    await mint(anvil, token, poor.wallet.address, units(10) - 1n);
    const dao = await createDao(api, owner, {
      threshold: 50,
      token: { chainId: anvil.chainId, address: token, standard: 'erc20' },
      proposers: 'holders',
      proposalThreshold: units(10).toString(),
    });
    const ok = await propose(rich, dao.daoId);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(await permissions(dao.daoId, rich.wallet.address)).toMatchObject({
      member: false,
      propose: true,
      proposeRefusal: null,
    });
    for (const who of [poor, none, owner]) {
      const res = await propose(who, dao.daoId);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({
        reason: 'NOT_ALLOWED_TO_PROPOSE',
        detail: 'BELOW_PROPOSAL_THRESHOLD',
      });
      expect(await permissions(dao.daoId, who.wallet.address)).toMatchObject({
        propose: false,
        proposeRefusal: 'BELOW_PROPOSAL_THRESHOLD',
      });
    }
    // the newest block: a holding bought now counts now
    await mint(anvil, token, poor.wallet.address, 1n);
    expect((await propose(poor, dao.daoId)).status).toBe(201);

    // without proposalThreshold any weight above zero will do
    const open = await createDao(api, owner, {
      threshold: 50,
      token: { chainId: anvil.chainId, address: token, standard: 'erc20' },
      proposers: 'holders',
    });
    expect((await propose(poor, open.daoId)).status).toBe(201);
    expect((await propose(none, open.daoId)).body.detail).toBe('BELOW_PROPOSAL_THRESHOLD');
  });

  it('a DAO that is not ACTIVE: 409 DAO_NOT_ACTIVE after the proposer rule, and the permissions read says so', async () => {
    const { owner, dao } = await daoWithMembers(api, 0);
    await query(t, sql`update daos set status = 'INACTIVE' where id = ${dao.daoId}`);
    const res = await propose(owner, dao.daoId);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('DAO_NOT_ACTIVE');
    expect(await permissions(dao.daoId, owner.wallet.address)).toMatchObject({
      role: 'owner',
      propose: false,
      proposeRefusal: 'DAO_NOT_ACTIVE',
    });
  });
});

describe('maxActiveProposalsPerAuthor', () => {
  it('one more open proposal is 409 TOO_MANY_ACTIVE_PROPOSALS; cancelled and ended ones do not count', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, maxActiveProposalsPerAuthor: 2 });
    const other = await memberUser(api);
    await addMember(api, owner, dao.daoId, other.wallet.address);
    const first = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
    await createProposal(api, owner, dao.daoId, {
      startTime: new Date(clock.now().getTime() + HOUR).toISOString(),
    });
    const third = await propose(owner, dao.daoId);
    expect(third.status).toBe(409);
    expect(third.body.reason).toBe('TOO_MANY_ACTIVE_PROPOSALS');
    // another author has their own count
    expect((await propose(other, dao.daoId)).status).toBe(201);
    // past its end (finalized or not yet): no longer open
    clock.advance(HOUR);
    const afterEnd = await propose(owner, dao.daoId);
    expect(afterEnd.status, JSON.stringify(afterEnd.body)).toBe(201);
    expect((await propose(owner, dao.daoId)).status).toBe(409);
    expect((await cancel(api, afterEnd.body.proposalId, {}, owner.token)).status).toBe(200);
    expect((await propose(owner, dao.daoId)).status).toBe(201);
    expect(first).toBeDefined();
  });

  it('many creates at once by one author: exactly the limit succeeds', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, maxActiveProposalsPerAuthor: 3 });
    const results = await Promise.all(Array.from({ length: 12 }, () => propose(owner, dao.daoId)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual(Array(9).fill(409));
    expect(new Set(refused.map((r) => r.body.reason))).toEqual(new Set(['TOO_MANY_ACTIVE_PROPOSALS']));
    const listed = (await api.get(`/proposals/dao/${dao.daoId}`)).body;
    expect(listed.pagination.total).toBe(3);
  });
});

describe('the permissions read', () => {
  it('says what each role may do, the same as the write paths decide', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const [admin, moderator, author, nobody] = await Promise.all([
      memberUser(api),
      memberUser(api),
      memberUser(api),
      memberUser(api),
    ]);
    await grantRole(t, dao.daoId, admin.wallet.address, 'admin');
    await grantRole(t, dao.daoId, moderator.wallet.address, 'moderator');
    await grantRole(t, dao.daoId, author.wallet.address, 'author');
    const flags = (p: Record<string, unknown>) => [
      p.role,
      p.editSettings,
      p.manageMembers,
      p.manageRoles,
      p.transferOwnership,
      p.cancelAnyProposal,
    ];
    expect(flags(await permissions(dao.daoId, owner.wallet.address))).toEqual([
      'owner',
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(flags(await permissions(dao.daoId, admin.wallet.address))).toEqual([
      'admin',
      true,
      true,
      true,
      false,
      true,
    ]);
    expect(flags(await permissions(dao.daoId, moderator.wallet.address))).toEqual([
      'moderator',
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(flags(await permissions(dao.daoId, author.wallet.address))).toEqual([
      'author',
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(flags(await permissions(dao.daoId, nobody.wallet.address))).toEqual([
      null,
      false,
      false,
      false,
      false,
      false,
    ]);
    // lower-case input, answered in its checksummed form
    const lower = await api.get(`/daos/${dao.daoId}/permissions/${members[0]!.wallet.address.toLowerCase()}`);
    expect(lower.body).toMatchObject({ address: members[0]!.wallet.address, member: true, role: null });

    expect((await api.get(`/daos/${dao.daoId}/permissions/0x12`)).status).toBe(400);
    expect(
      (await api.get(`/daos/00000000-0000-4000-8000-000000000000/permissions/${owner.wallet.address}`))
        .status,
    ).toBe(404);
  });
});
