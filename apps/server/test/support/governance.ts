import type { PrivateKeyAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { TestApp } from './app';
import { memberUser, newWallet, type TestUser } from './factories';
import type { ApiClient } from './http';

/** Governance test data: DAOs, members, proposals and signed votes through the real API. */

export type Member = TestUser & { wallet: PrivateKeyAccount };

export async function createDao(
  api: ApiClient,
  owner: Member,
  votingRules: Record<string, unknown> = { threshold: 50, minVotingPeriod: 0, tokenWeighted: false },
  extra: Record<string, unknown> = {},
) {
  const res = await api.post(
    '/daos',
    {
      name: `DAO ${Math.random().toString(36).slice(2, 8)}`,
      ownerAddress: owner.wallet.address,
      votingRules,
      ...extra,
    },
    { token: owner.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { daoId: string; [k: string]: unknown };
}

export async function addMember(api: ApiClient, owner: Member, daoId: string, address: string) {
  const res = await api.post(`/daos/${daoId}/members`, { memberAddress: address }, { token: owner.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function createProposal(
  api: ApiClient,
  creator: Member,
  daoId: string,
  extra: Record<string, unknown> = {},
) {
  const res = await api.post(
    '/proposals',
    {
      daoId,
      title: 'Fund the garden',
      description: 'Buy seeds',
      creatorAddress: creator.wallet.address,
      votingDurationHours: 24,
      proposalData: { amount: '100' },
      ...extra,
    },
    { token: creator.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { proposalId: string; daoId: string; [k: string]: unknown };
}

/** an owner and n more members (users with a linked wallet) in a fresh equal-weight DAO */
export async function daoWithMembers(api: ApiClient, n: number, rules?: Record<string, unknown>) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, rules);
  const members: Member[] = [];
  for (let i = 0; i < n; i++) {
    const m = await memberUser(api);
    await addMember(api, owner, dao.daoId, m.wallet.address);
    members.push(m);
  }
  return { owner, dao, members };
}

/** bare wallets (linked to nobody) added as members: they vote by signature */
export async function walletMembers(api: ApiClient, owner: Member, daoId: string, n: number) {
  const wallets: PrivateKeyAccount[] = [];
  for (let i = 0; i < n; i++) {
    const w = newWallet();
    await addMember(api, owner, daoId, w.address);
    wallets.push(w);
  }
  return wallets;
}

/**
 * written out from docs/governance.md ("Signed votes"), not imported from core: a client signs what the
 * docs say, so a drift in core fails
 */
export const VOTE_TYPES = {
  Vote: [
    { name: 'daoId', type: 'string' },
    { name: 'proposalId', type: 'string' },
    { name: 'choice', type: 'string' },
    { name: 'comment', type: 'string' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;

export async function signedVote(
  wallet: PrivateKeyAccount,
  vote: { daoId: string; proposalId: string; choice: string; comment?: string },
  timestamp = Math.floor(Date.now() / 1000),
) {
  const message = { ...vote, comment: vote.comment ?? '', timestamp: BigInt(timestamp) };
  const signature = await wallet.signTypedData({
    domain: { name: 'Plenum', version: '1' },
    types: VOTE_TYPES,
    primaryType: 'Vote',
    message,
  });
  return {
    daoId: vote.daoId,
    proposalId: vote.proposalId,
    voterAddress: wallet.address,
    choice: vote.choice,
    ...(vote.comment !== undefined ? { comment: vote.comment } : {}),
    signature,
    timestamp,
  };
}

/** written out from docs/governance.md ("Delegating"), not imported from core */
const DELEGATION_TYPES = {
  Delegation: [
    { name: 'daoId', type: 'string' },
    { name: 'delegatorAddress', type: 'address' },
    { name: 'delegateAddress', type: 'address' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;

/** the body of PUT /daos/{daoId}/delegation signed by the delegator's wallet (EIP-712 `Delegation`) */
export async function signedDelegation(
  wallet: PrivateKeyAccount,
  d: { daoId: string; delegateAddress: string },
  timestamp = Math.floor(Date.now() / 1000),
) {
  const signature = await wallet.signTypedData({
    domain: { name: 'Plenum', version: '1' },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: {
      daoId: d.daoId,
      delegatorAddress: wallet.address,
      delegateAddress: d.delegateAddress as `0x${string}`,
      timestamp: BigInt(timestamp),
    },
  });
  return { delegatorAddress: wallet.address, delegateAddress: d.delegateAddress, signature, timestamp };
}

/** runs one pass of the proposal status scheduler of an app */
export function tick(t: TestApp): Promise<number> {
  return t.app.scheduler.tick();
}

/** A DAO with n wallet members, an open proposal, and one signed ballot per member (For/Against/Abstain in turn). */
export async function proposalWithBallots(api: ApiClient, n: number) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner);
  const wallets = await walletMembers(api, owner, dao.daoId, n);
  const proposal = await createProposal(api, owner, dao.daoId);
  const choices = ['For', 'Against', 'Abstain'];
  const ballots = await Promise.all(
    wallets.map((w, i) =>
      signedVote(w, { daoId: dao.daoId, proposalId: proposal.proposalId, choice: choices[i % 3]! }),
    ),
  );
  return { dao, proposal, ballots };
}
