import { ManualClock } from '@plenum/core';
import { sql } from 'drizzle-orm';
import { verifyTypedData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser, newWallet } from './support/factories';
import {
  addMember,
  createDao,
  createProposal,
  daoWithMembers,
  signedVote,
  walletMembers,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';

let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);

/** what anyone can do with GET /votes/{id}: check the stored signature against the returned typed data */
function verifiesOffline(stored: {
  voterAddress: `0x${string}`;
  signature: `0x${string}`;
  typedData: {
    domain: { name: string; version: string };
    types: Record<string, unknown>;
    message: Record<string, unknown>;
  };
}) {
  const { EIP712Domain: _d, ...types } = stored.typedData.types;
  return verifyTypedData({
    address: stored.voterAddress,
    domain: stored.typedData.domain,
    types: types as Parameters<typeof verifyTypedData>[0]['types'],
    primaryType: 'Vote',
    message: { ...stored.typedData.message, timestamp: BigInt(stored.typedData.message.timestamp as number) },
    signature: stored.signature,
  });
}
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const NONE = '00000000-0000-4000-8000-000000000000';

describe('POST /votes with a session', () => {
  it('records the vote with the server-set weight; results, lists and the voter lookup follow', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const p = await createProposal(api, owner, dao.daoId);
    const voter = members[0]!;
    const res = await api.post(
      '/votes',
      {
        proposalId: p.proposalId,
        daoId: dao.daoId,
        voterAddress: voter.wallet.address.toLowerCase(),
        choice: ' For ',
        comment: 'yes!',
      },
      { token: voter.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      proposalId: p.proposalId,
      daoId: dao.daoId,
      voterAddress: voter.wallet.address,
      choice: 'For',
      weight: '1',
      comment: 'yes!',
      signature: null,
      typedData: null,
    });
    // the cast alone carries the receipt (docs/governance.md, "Receipts"); the reads show the same vote
    const { receipt, ...vote } = res.body;
    expect(receipt).toMatch(/^bafyrei/);
    expect((await api.get(`/votes/${res.body.voteId}`)).body).toEqual(vote);
    expect((await api.get(`/votes/proposal/${p.proposalId}/voter/${voter.wallet.address}`)).body).toEqual(
      vote,
    );
    expect((await api.get(`/votes/proposal/${p.proposalId}/voter/${owner.wallet.address}`)).status).toBe(404);
    const list = await api.get(`/votes/proposal/${p.proposalId}`);
    expect(list.body.items).toEqual([vote]);
    expect(list.body.pagination.total).toBe(1);
    const proposal = await api.get(`/proposals/${p.proposalId}`);
    expect(proposal.body.voteCount).toBe(1);
    expect(proposal.body.votes).toEqual([vote]);
    const results = await api.get(`/votes/proposal/${p.proposalId}/results`);
    expect(results.body).toMatchObject({
      proposalId: p.proposalId,
      status: 'ACTIVE',
      options: [
        { option: 'For', votes: 1, weight: '1', percent: 100 },
        { option: 'Against', votes: 0, weight: '0', percent: 0 },
        { option: 'Abstain', votes: 0, weight: '0', percent: 0 },
      ],
      totalVotes: 1,
      totalWeight: '1',
      eligibleVoters: 2,
      eligibleWeight: '2',
      turnoutPercent: 50,
      quorumPercent: 0,
      quorumReached: true,
      threshold: 50,
      winningOption: 'For',
      passing: true,
    });
    const again = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice: 'Against' },
      { token: voter.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('ALREADY_VOTED');
  });

  it('weights token-weighted votes by the balance frozen at voting start', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, tokenWeighted: true });
    const rich = await memberUser(api);
    const poor = await memberUser(api);
    await addMember(api, owner, dao.daoId, rich.wallet.address);
    await addMember(api, owner, dao.daoId, poor.wallet.address);
    const big = (10n ** 40n).toString();
    await api.put(
      `/daos/${dao.daoId}/members/${rich.wallet.address}`,
      { tokenBalance: big },
      { token: owner.token },
    );
    await api.put(
      `/daos/${dao.daoId}/members/${owner.wallet.address}`,
      { tokenBalance: '7' },
      { token: owner.token },
    );
    const p = await createProposal(api, owner, dao.daoId);
    // later balance changes do not count
    await api.put(
      `/daos/${dao.daoId}/members/${rich.wallet.address}`,
      { tokenBalance: '1' },
      { token: owner.token },
    );
    const v = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: rich.wallet.address, choice: 'Against' },
      { token: rich.token },
    );
    expect(v.body.weight).toBe(big);
    // a zero balance at the snapshot gives no vote
    const zero = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: poor.wallet.address, choice: 'For' },
      { token: poor.token },
    );
    expect(zero.status).toBe(403);
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results).toMatchObject({
      eligibleVoters: 2,
      eligibleWeight: (10n ** 40n + 7n).toString(),
      totalWeight: big,
    });
  });

  it('a removed member loses the vote', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const p = await createProposal(api, owner, dao.daoId);
    await api.delete(`/daos/${dao.daoId}/members/${members[0]!.wallet.address}`, { token: owner.token });
    const res = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: members[0]!.wallet.address, choice: 'For' },
      { token: members[0]!.token },
    );
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('NOT_ELIGIBLE');
    // the finer cause, the voting power's own reason (docs/governance.md, "Voting power")
    expect(res.body.detail).toBe('NOT_A_MEMBER');
  });
});

describe('POST /votes bad input and checks', () => {
  it('answers each failure with its status, in the documented order (docs/governance.md, "Votes")', async () => {
    const { owner, dao, members } = await daoWithMembers(api, 1);
    const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
    const voter = members[0]!;
    const body = {
      proposalId: p.proposalId,
      daoId: dao.daoId,
      voterAddress: voter.wallet.address,
      choice: 'For',
    };
    const post = (patch: Record<string, unknown>, token: string | null = voter.token) => {
      const b: Record<string, unknown> = { ...body, ...patch };
      for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
      return api.post('/votes', b, { token });
    };
    const cases: [string, Record<string, unknown>, number, string?][] = [
      ['missing choice', { choice: undefined }, 400, 'choice'],
      ['missing proposalId', { proposalId: undefined }, 400, 'proposalId'],
      ['choice not a string', { choice: 1 }, 400, 'choice'],
      ['comment too long', { comment: 'x'.repeat(1001) }, 400, 'comment'],
      ['client-set weight', { weight: '100' }, 400],
      ['malformed voterAddress', { voterAddress: '0xzz' }, 400, 'voterAddress'],
      ['choice not an option', { choice: 'Maybe' }, 400, 'choice'],
      ['daoId of another DAO', { daoId: NONE }, 400, 'daoId'],
      ['unknown proposal', { proposalId: NONE }, 404],
      ['signature without timestamp', { signature: '0x1234' }, 400, 'timestamp'],
    ];
    for (const [name, patch, status, field] of cases) {
      const res = await post(patch);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
      if (field)
        expect(
          res.body.issues.map((i: { path: string }) => i.path),
          name,
        ).toContain(field);
    }
    expect((await post({}, null)).status).toBe(401);
    const outsider = await memberUser(api);
    expect((await post({}, outsider.token)).status).toBe(403); // not their address
    const nonMember = await post({ voterAddress: outsider.wallet.address }, outsider.token);
    expect(nonMember.status).toBe(403);
    expect(nonMember.body.reason).toBe('NOT_ELIGIBLE');

    // INACTIVE DAO: 409
    await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    const inactive = await post({});
    expect(inactive.status).toBe(409);
    expect(inactive.body.reason).toBe('DAO_NOT_ACTIVE');
    await api.post(`/daos/${dao.daoId}/status`, { status: 'ACTIVE' }, { token: owner.token });

    // ended: 409 PROPOSAL_NOT_ACTIVE, but eligibility is checked first
    clock.advance(3_600_000);
    const ended = await post({});
    expect(ended.status).toBe(409);
    expect(ended.body.reason).toBe('PROPOSAL_NOT_ACTIVE');
    expect((await post({ voterAddress: outsider.wallet.address }, outsider.token)).status).toBe(403);
  });

  it('404/400 on the vote read paths', async () => {
    expect((await api.get(`/votes/${NONE}`)).status).toBe(404);
    expect((await api.get('/votes/abc')).status).toBe(400);
    expect((await api.get(`/votes/proposal/${NONE}`)).status).toBe(404);
    expect((await api.get(`/votes/proposal/${NONE}/results`)).status).toBe(404);
    expect((await api.get(`/votes/proposal/${NONE}/voter/${newWallet().address}`)).status).toBe(404);
    expect((await api.get(`/votes/proposal/${NONE}/voter/0x12`)).status).toBe(400);
  });
});

describe('signed votes (EIP-712)', () => {
  it('publishes the typed data', async () => {
    const res = await api.get('/eip712/vote');
    expect(res.status).toBe(200);
    expect(res.body.domain).toEqual({ name: 'Plenum', version: '1' });
    expect(res.body.primaryType).toBe('Vote');
    expect(res.body.types.Vote).toEqual([
      { name: 'daoId', type: 'string' },
      { name: 'proposalId', type: 'string' },
      { name: 'choice', type: 'string' },
      { name: 'comment', type: 'string' },
      { name: 'timestamp', type: 'uint64' },
    ]);
  });

  it('valid, wrong signer, tampered choice, replay, stale and future timestamps', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const [w1, w2] = await walletMembers(api, owner, dao.daoId, 2);
    const p = await createProposal(api, owner, dao.daoId);
    const vote = { daoId: dao.daoId, proposalId: p.proposalId, choice: 'Against', comment: 'no thanks' };

    const wrongSigner = { ...(await signedVote(w2!, vote, nowS())), voterAddress: w1!.address };
    expect((await api.post('/votes', wrongSigner)).status).toBe(401);
    const tampered = { ...(await signedVote(w1!, vote, nowS())), choice: 'For' };
    expect((await api.post('/votes', tampered)).status).toBe(401);
    const stale = await api.post('/votes', await signedVote(w1!, vote, nowS() - 601));
    expect(stale.status).toBe(401);
    expect(stale.body.reason).toBe('SIGNATURE_EXPIRED');
    expect((await api.post('/votes', await signedVote(w1!, vote, nowS() + 301))).status).toBe(401);
    expect(
      (await api.post('/votes', { ...(await signedVote(w1!, vote, nowS())), signature: '0xdead' })).status,
    ).toBe(401);

    const signed = await signedVote(w1!, vote, nowS() - 30);
    const ok = await api.post('/votes', signed);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({
      voterAddress: w1!.address,
      choice: 'Against',
      comment: 'no thanks',
      signature: signed.signature,
    });
    // anyone can verify the stored vote offline with what GET /votes/{id} returns
    const stored = (await api.get(`/votes/${ok.body.voteId}`)).body;
    expect(stored.typedData.domain).toEqual({ name: 'Plenum', version: '1' });
    expect(await verifiesOffline(stored)).toBe(true);

    const replay = await api.post('/votes', signed);
    expect(replay.status).toBe(409);
    expect(replay.body.reason).toBe('ALREADY_VOTED');

    // a signed vote from a wallet that is not a member
    const stranger = newWallet();
    expect((await api.post('/votes', await signedVote(stranger, vote, nowS()))).status).toBe(403);
  });

  it('trims a signed choice like a session one, and the stored typed data is still what was signed', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const [w] = await walletMembers(api, owner, dao.daoId, 1);
    const p = await createProposal(api, owner, dao.daoId);
    const signed = await signedVote(
      w!,
      { daoId: dao.daoId, proposalId: p.proposalId, choice: '  For ' },
      nowS(),
    );
    const ok = await api.post('/votes', signed);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.choice).toBe('For');
    const results = (await api.get(`/votes/proposal/${p.proposalId}/results`)).body;
    expect(results.options.find((o: { option: string }) => o.option === 'For').votes).toBe(1);
    const stored = (await api.get(`/votes/${ok.body.voteId}`)).body;
    expect(stored.choice).toBe('For');
    expect(stored.typedData.message.choice).toBe('  For ');
    expect(await verifiesOffline(stored)).toBe(true);
  });

  it('a wallet linked to a suspended user cannot vote by signature', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const member = await memberUser(api);
    await addMember(api, owner, dao.daoId, member.wallet.address);
    const p = await createProposal(api, owner, dao.daoId);
    await t.app.dbHandle.db.execute(sql`update users set status = 'suspended' where id = ${member.id}`);
    const res = await api.post(
      '/votes',
      await signedVote(member.wallet, { daoId: dao.daoId, proposalId: p.proposalId, choice: 'For' }, nowS()),
    );
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe('NOT_ELIGIBLE');
    expect(res.body.detail).toBe('ACCOUNT_SUSPENDED');
  });
});
