import { ManualClock, maxEventId } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { socketSubscriber, subscribed, trpcSubscriber } from './support/events';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, tick } from './support/governance';
import { apiClient } from './support/http';

const clock = new ManualClock(Date.parse('2032-03-01T00:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

describe('governance actions reach live subscribers', () => {
  it('REST writes emit dao_created, proposal_submitted, vote_cast and proposal_status_changed to Socket.IO and tRPC', async () => {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const voter = await memberUser(api);
    const from = String(await maxEventId(t.app.svc));
    const sio = socketSubscriber(t, { token: owner.token }, { lastEventId: from });
    const trpc = trpcSubscriber(t, voter.token, { lastEventId: from });
    try {
      await sio.connected;
      const dao = await createDao(api, owner);
      await addMember(api, owner, dao.daoId, voter.wallet.address);
      const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
      const cast = await api.post(
        '/votes',
        { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice: 'For' },
        { token: voter.token },
      );
      expect(cast.status, JSON.stringify(cast.body)).toBe(201);
      clock.advance(3_600_000);
      expect(await tick(t)).toBe(1);

      const got = await sio.waitFor(4);
      expect(await trpc.waitFor(4)).toEqual(got);
      expect(got.map((e) => e.type)).toEqual([
        'dao_created',
        'proposal_submitted',
        'vote_cast',
        'proposal_status_changed',
      ]);
      expect(got.every((e) => e.daoId === dao.daoId)).toBe(true);
      const [created, submitted, voted, changed] = got;
      expect(created!.proposalId).toBeUndefined();
      expect(created!.data).toMatchObject({ daoId: dao.daoId, name: dao.name });
      expect(submitted).toMatchObject({ proposalId: p.proposalId, data: { proposalId: p.proposalId } });
      expect(voted).toMatchObject({
        proposalId: p.proposalId,
        data: { vote: { voteId: cast.body.voteId, choice: 'For' }, results: { totalVotes: 1 } },
      });
      expect(changed).toMatchObject({
        proposalId: p.proposalId,
        data: { proposalId: p.proposalId, from: 'ACTIVE', to: 'PASSED', results: { totalVotes: 1 } },
      });
      expect(sio.argCounts).toEqual([1, 1, 1, 1]);
    } finally {
      sio.close();
      trpc.close();
    }
  });

  it.skipIf(TEST_DB !== 'postgres')(
    'a vote cast on instance B reaches a subscriber of its proposal on instance A',
    async () => {
      const b = await startTestApp({ databaseUrl: t.databaseUrl!, clock });
      try {
        const api = apiClient(t.url);
        const owner = await memberUser(api);
        const dao = await createDao(api, owner);
        const p = await createProposal(api, owner, dao.daoId, { votingDurationHours: 1 });
        const sub = trpcSubscriber(t, owner.token, { proposalId: p.proposalId, events: ['vote_cast'] });
        try {
          await subscribed(t, { proposalId: p.proposalId });
          const cast = await apiClient(b.url).post(
            '/votes',
            {
              proposalId: p.proposalId,
              daoId: dao.daoId,
              voterAddress: owner.wallet.address,
              choice: 'Against',
            },
            { token: owner.token },
          );
          expect(cast.status, JSON.stringify(cast.body)).toBe(201);
          const [e] = await sub.waitFor(1);
          expect(e).toMatchObject({ type: 'vote_cast', data: { vote: { voteId: cast.body.voteId } } });
        } finally {
          sub.close();
        }
      } finally {
        await b.close();
      }
    },
  );
});
