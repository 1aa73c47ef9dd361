import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, signedVote } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * The voting power and the vote share one eligibility decision (docs/governance.md, "Voting power"):
 * for every reason an address cannot vote, GET …/voting-power answers `eligible: false` with that
 * reason, and a session vote and a signed vote are refused with it as their `detail` (under the
 * contract's `reason`: NOT_ELIGIBLE, PROPOSAL_NOT_ACTIVE or DAO_NOT_ACTIVE).
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

/** the vote's status and contract reason for each voting-power reason; its `detail` is that reason */
const REFUSAL: Record<string, [number, string]> = {
  NOT_STARTED: [409, 'PROPOSAL_NOT_ACTIVE'],
  ENDED: [409, 'PROPOSAL_NOT_ACTIVE'],
  DAO_NOT_ACTIVE: [409, 'DAO_NOT_ACTIVE'],
};
const refusal = (reason: string) => [...(REFUSAL[reason] ?? [403, 'NOT_ELIGIBLE']), reason];

/**
 * The voting power's answer, and what a signed vote and (when the account can still sign in) a session
 * vote of `voter` are refused with: all three say `reason`.
 */
async function expectRefused(
  reason: string,
  ids: { daoId: string; proposalId: string },
  voter: { wallet: PrivateKeyAccount; token?: string | undefined },
  session = true,
) {
  const power = (await api.get(`/proposals/${ids.proposalId}/voting-power/${voter.wallet.address}`)).body;
  expect({ eligible: power.eligible, reason: power.reason }, `${reason}: voting power`).toEqual({
    eligible: false,
    reason,
  });
  const signed = await api.post('/votes', await signedVote(voter.wallet, { ...ids, choice: 'For' }, nowS()));
  expect([signed.status, signed.body.reason, signed.body.detail], `${reason}: signed vote`).toEqual(
    refusal(reason),
  );
  if (session && voter.token) {
    const bySession = await api.post(
      '/votes',
      { ...ids, voterAddress: voter.wallet.address, choice: 'For' },
      { token: voter.token },
    );
    expect(
      [bySession.status, bySession.body.reason, bySession.body.detail],
      `${reason}: session vote`,
    ).toEqual(refusal(reason));
  }
}

async function dao(rules?: Record<string, unknown>) {
  const owner = await memberUser(api);
  const d = await createDao(api, owner, rules);
  const voter = await memberUser(api);
  await addMember(api, owner, d.daoId, voter.wallet.address);
  return { owner, daoId: d.daoId, voter };
}
const idsOf = (p: { proposalId: string; daoId: string }) => ({ daoId: p.daoId, proposalId: p.proposalId });

describe('one eligibility decision, one reason', () => {
  it('NOT_STARTED, and NOT_A_MEMBER before the start', async () => {
    const { owner, daoId, voter } = await dao();
    const p = await createProposal(api, owner, daoId, {
      startTime: new Date(clock.now().getTime() + HOUR).toISOString(),
    });
    await expectRefused('NOT_STARTED', idsOf(p), voter);
    await expectRefused('NOT_A_MEMBER', idsOf(p), await memberUser(api));
  });

  it('ENDED', async () => {
    const { owner, daoId, voter } = await dao();
    const p = await createProposal(api, owner, daoId, { votingDurationHours: 1 });
    clock.advance(2 * HOUR);
    await expectRefused('ENDED', idsOf(p), voter);
  });

  it('DAO_NOT_ACTIVE', async () => {
    const { owner, daoId, voter } = await dao();
    const p = await createProposal(api, owner, daoId);
    const off = await api.post(`/daos/${daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await expectRefused('DAO_NOT_ACTIVE', idsOf(p), voter);
  });

  it('NOT_A_MEMBER: never one, or removed since the start', async () => {
    const { owner, daoId, voter } = await dao();
    const p = await createProposal(api, owner, daoId);
    await expectRefused('NOT_A_MEMBER', idsOf(p), await memberUser(api));
    await api.delete(`/daos/${daoId}/members/${voter.wallet.address}`, { token: owner.token });
    await expectRefused('NOT_A_MEMBER', idsOf(p), voter);
  });

  it('JOINED_AFTER_START', async () => {
    const { owner, daoId } = await dao();
    const p = await createProposal(api, owner, daoId);
    clock.advance(1000);
    const late = await memberUser(api);
    await addMember(api, owner, daoId, late.wallet.address);
    await expectRefused('JOINED_AFTER_START', idsOf(p), late);
  });

  it('NO_WEIGHT: a token-weighted member with no balance at the start', async () => {
    const { owner, daoId, voter } = await dao({ threshold: 50, minVotingPeriod: 0, tokenWeighted: true });
    const set = await api.put(
      `/daos/${daoId}/members/${owner.wallet.address}`,
      { tokenBalance: '5' },
      { token: owner.token },
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    clock.advance(1000);
    const p = await createProposal(api, owner, daoId);
    await expectRefused('NO_WEIGHT', idsOf(p), voter);
  });

  it('ACCOUNT_SUSPENDED and ACCOUNT_DELETED: the wallet of such an account is told so before it signs', async () => {
    const { owner, daoId, voter } = await dao();
    const other = await memberUser(api);
    await addMember(api, owner, daoId, other.wallet.address);
    const p = await createProposal(api, owner, daoId);
    const db = t.app.dbHandle.db;
    await db.execute(sql`update users set status = 'suspended' where id = ${voter.id}`);
    await db.execute(sql`update users set deleted_at = now() where id = ${other.id}`);
    // such an account cannot hold a session: only its wallet's signature reaches the vote
    await expectRefused('ACCOUNT_SUSPENDED', idsOf(p), voter, false);
    await expectRefused('ACCOUNT_DELETED', idsOf(p), other, false);
  });

  it('an eligible voter is told so, and votes', async () => {
    const { owner, daoId, voter } = await dao();
    const p = await createProposal(api, owner, daoId);
    const power = (await api.get(`/proposals/${p.proposalId}/voting-power/${voter.wallet.address}`)).body;
    expect(power).toMatchObject({ eligible: true, reason: null, weight: '1' });
    const res = await api.post(
      '/votes',
      await signedVote(voter.wallet, { ...idsOf(p), choice: 'For' }, nowS()),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});
