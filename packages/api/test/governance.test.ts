import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from './support/api';
import { failure } from './support/errors';
import { daoInput, memberUser, proposalInput, type TestUser } from './support/factories';

/** Governance through the routers: a DAO, its members, a proposal, votes and results. */

type Member = TestUser & { wallet: { address: `0x${string}` } };

let api: TestApi;
let owner: Member;
let alice: Member;
let bob: Member;
let outsider: Member;
let daoId: string;
let proposalId: string;

const as = (user: TestUser) => api.caller(user.token);

beforeAll(async () => {
  api = await createTestApi();
  [owner, alice, bob, outsider] = await Promise.all([
    memberUser(api),
    memberUser(api),
    memberUser(api),
    memberUser(api),
  ]);
});
afterAll(() => api?.close());

describe('DAOs', () => {
  it('are created with their owner as first member, then listed, fetched and found by owner', async () => {
    const created = await (await as(owner)).governance.daos.create(
      daoInput(owner.wallet.address, { name: '  Garden club  ', votingRules: { threshold: 50 } }),
    );
    daoId = created.daoId;
    expect(created).toMatchObject({
      name: 'Garden club',
      status: 'ACTIVE',
      ownerAddress: owner.wallet.address,
      members: [owner.wallet.address],
      votingRules: { threshold: 50, minVotingPeriod: 0, tokenWeighted: false, quorum: 0 },
      memberCount: 1,
    });

    const anon = await api.caller();
    const listed = await anon.governance.daos.list({});
    expect(listed.items.map((d) => d.daoId)).toContain(daoId);
    expect(listed.pagination).toMatchObject({ page: 1, limit: 50 });
    expect((await anon.governance.daos.get({ daoId })).name).toBe('Garden club');
    const byOwner = await anon.governance.daos.byOwner({ ownerAddress: owner.wallet.address.toLowerCase() });
    expect(byOwner.items.map((d) => d.daoId)).toEqual([daoId]);
  });

  it('refuse an owner address that is not one of the caller’s wallets', async () => {
    const f = await failure((await as(alice)).governance.daos.create(daoInput(owner.wallet.address)));
    expect(f).toMatchObject({ code: 'FORBIDDEN', reason: 'NOT_YOUR_ADDRESS' });
  });
});

describe('members', () => {
  it('are added by the owner only', async () => {
    const asOwner = await as(owner);
    await asOwner.governance.members.add({ daoId, memberAddress: alice.wallet.address });
    const added = await asOwner.governance.members.add({ daoId, memberAddress: bob.wallet.address });
    expect(added).toMatchObject({ daoId, memberAddress: bob.wallet.address, memberCount: 3 });

    const f = await failure(
      (await as(alice)).governance.members.add({ daoId, memberAddress: outsider.wallet.address }),
    );
    expect(f.code).toBe('FORBIDDEN');
    const members = await (await api.caller()).governance.members.list({ daoId });
    expect(members.items.map((m) => m.memberAddress).sort()).toEqual(
      [owner, alice, bob].map((u) => u.wallet.address).sort(),
    );
  });
});

describe('proposals', () => {
  it('open at once with the default options and show in the DAO’s lists', async () => {
    const proposal = await (await as(alice)).governance.proposals.create(
      proposalInput(daoId, alice.wallet.address),
    );
    proposalId = proposal.proposalId;
    expect(proposal).toMatchObject({ daoId, status: 'ACTIVE', votingOptions: ['For', 'Against', 'Abstain'] });
    const hours = (Date.parse(proposal.endTime) - Date.parse(proposal.startTime)) / 3_600_000;
    expect(hours).toBe(24);

    const anon = await api.caller();
    expect((await anon.governance.proposals.get({ proposalId })).votes).toEqual([]);
    expect((await anon.governance.proposals.byDao({ daoId })).items.map((p) => p.proposalId)).toEqual([
      proposalId,
    ]);
    expect((await anon.governance.proposals.activeByDao({ daoId })).pagination.total).toBe(1);
  });

  it('are refused to a non-member with 403 NOT_A_MEMBER', async () => {
    const f = await failure(
      (await as(outsider)).governance.proposals.create(proposalInput(daoId, outsider.wallet.address)),
    );
    expect(f).toMatchObject({ code: 'FORBIDDEN', reason: 'NOT_A_MEMBER' });
  });
});

describe('votes and results', () => {
  const ballot = (voter: Member, choice: string) => ({
    daoId,
    proposalId,
    voterAddress: voter.wallet.address,
    choice,
  });

  it('count each member once and give the outcome', async () => {
    const [v1] = await Promise.all([
      (await as(owner)).governance.votes.cast(ballot(owner, 'For')),
      (await as(alice)).governance.votes.cast(ballot(alice, ' For ')),
      (await as(bob)).governance.votes.cast(ballot(bob, 'Against')),
    ]);
    expect(v1).toMatchObject({ proposalId, voterAddress: owner.wallet.address, choice: 'For', weight: '1' });

    const anon = await api.caller();
    const results = await anon.governance.votes.results({ proposalId });
    expect(results.options.map((o) => [o.option, o.votes])).toEqual([
      ['For', 2],
      ['Against', 1],
      ['Abstain', 0],
    ]);
    expect(results).toMatchObject({ totalVotes: 3, eligibleVoters: 3, winningOption: 'For', passing: true });
    expect(
      (await anon.governance.votes.byVoter({ proposalId, voterAddress: bob.wallet.address })).choice,
    ).toBe('Against');
    expect((await anon.governance.votes.byProposal({ proposalId })).pagination.total).toBe(3);
  });

  it('refuse a second vote, a non-member and an unknown choice', async () => {
    const again = await failure((await as(owner)).governance.votes.cast(ballot(owner, 'Against')));
    expect(again).toMatchObject({ code: 'CONFLICT', reason: 'ALREADY_VOTED' });
    const stranger = await failure((await as(outsider)).governance.votes.cast(ballot(outsider, 'For')));
    expect(stranger).toMatchObject({ code: 'FORBIDDEN', reason: 'NOT_ELIGIBLE' });
    const typo = await failure((await as(bob)).governance.votes.cast(ballot(bob, 'Maybe')));
    expect(typo.issues?.map((i) => i.path)).toEqual(['choice']);
  });

  it('need a session or a signature: an anonymous unsigned vote is 401', async () => {
    const f = await failure((await api.caller()).governance.votes.cast(ballot(alice, 'For')));
    expect(f).toMatchObject({ code: 'UNAUTHORIZED', reason: 'NOT_SIGNED_IN' });
  });
});
