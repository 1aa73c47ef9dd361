import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, TEST_DB, type TestApp } from './support/app';
import { type DbProxy, startDbProxy } from './support/db-proxy';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * While PostgreSQL does not answer (connections cut, new ones never answered, as when its container
 * stops), requests fail fast with 503 and Retry-After instead of each waiting for its own connection
 * attempt, /health says so, and traffic recovers by itself when the database is back
 * (docs/operations.md, "Database outages"). Counted, not timed: the number of connection attempts.
 */
describe.runIf(TEST_DB === 'postgres')('with the database unreachable', () => {
  let proxy: DbProxy;
  let t: TestApp;
  let api: ApiClient;
  let owner: Member;
  let voter: Member;
  let daoId: string;
  let proposalId: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    proxy = await startDbProxy(db.url!);
    t = await startTestApp({ databaseUrl: proxy.url });
    api = apiClient(t.url);
    owner = await memberUser(api);
    daoId = (await createDao(api, owner)).daoId;
    voter = await memberUser(api);
    await addMember(api, owner, daoId, voter.wallet.address);
    proposalId = (await createProposal(api, owner, daoId)).proposalId;
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await drop?.();
  });

  it('answers 503 with Retry-After on every service, without a connection attempt per request', async () => {
    proxy.hang();
    const vote = () =>
      api.post(
        '/votes',
        { daoId, proposalId, voterAddress: owner.wallet.address, choice: 'For' },
        { token: owner.token },
      );
    const first = await vote();
    expect(first.status, first.text).toBe(503);
    expect(first.body.reason).toBe('DATABASE_UNAVAILABLE');
    expect(first.headers.get('retry-after')).toBe('1');

    const before = proxy.connections;
    const requests = 30;
    for (let i = 0; i < requests / 3; i++) {
      for (const res of [
        await api.get('/daos'),
        await vote(),
        await fetch(`${t.url}/trpc/governance.daos.list?input=${encodeURIComponent('{}')}`).then(
          async (r) => ({
            status: r.status,
            headers: r.headers,
            body: await r.json(),
          }),
        ),
      ]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
      }
    }
    const health = await api.get('/health');
    expect(health.status).toBe(503);
    expect(health.body.db).toBe('down');
    // only the background probe connects, one attempt at a time; requests never do. The probe's own
    // attempts follow the clock (a slow, busy machine sees more of them while the requests run), so the
    // bound is the requests' count: one attempt per request would reach it
    expect(proxy.connections - before).toBeLessThan(requests);
  });

  it('recovers without a restart once the database answers again, and loses nothing acknowledged', async () => {
    proxy.resume();
    // wait for the condition: the probe sees the database again
    let status = 0;
    while (status !== 200) {
      status = (await api.get('/daos')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect((await api.get('/health')).status).toBe(200);
    const res = await api.post(
      '/votes',
      { daoId, proposalId, voterAddress: voter.wallet.address, choice: 'Against' },
      { token: voter.token },
    );
    expect(res.status, res.text).toBe(201);
    const results = await api.get(`/votes/proposal/${proposalId}/results`);
    expect(results.body.totalVotes).toBe(1); // the refused votes left nothing behind
  });
});
