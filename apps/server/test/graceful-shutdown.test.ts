import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { freshDatabase, TEST_DB } from './support/app';
import { proposalWithBallots } from './support/governance';
import { apiClient } from './support/http';
import { startServerProcess } from './support/server-process';

/**
 * Graceful shutdown (docs/operations.md, "Shutdown"): SIGTERM under vote load. Every answer is a 201
 * (then the vote is stored) or a 503 SHUTTING_DOWN; the process exits by itself with code 0, which it
 * does only when it finished before SHUTDOWN_TIMEOUT (the forced exit is code 1); tallies equal a recount.
 */
describe('graceful shutdown', () => {
  it.runIf(TEST_DB === 'postgres')(
    'SIGTERM under vote load: every answer is 201 or 503, every 201 is stored, exit code 0',
    async () => {
      const db = await freshDatabase();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-term-'));
      const sql = postgres(db.url!, { max: 2, onnotice: () => {} });
      let server = await startServerProcess({ DATABASE_URL: db.url!, SHUTDOWN_TIMEOUT: '60s' }, { dataDir });
      try {
        let api = apiClient(server.url);
        const { proposal, ballots } = await proposalWithBallots(api, 250);

        const acknowledged: string[] = [];
        const statuses: Record<string, number> = {};
        const reasons = new Set<string>();
        let signalled = false;
        const exit = new Promise<number | null>((resolve) =>
          server.child.once('exit', (code) => resolve(code)),
        );
        await Promise.all(
          ballots.map(async (b) => {
            let res: Response;
            try {
              res = await fetch(`${server.url}/votes`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(b),
              });
            } catch {
              // no answer: the listener had closed, or an idle keep-alive connection was closed as the
              // request was being written to it (the client cannot tell): not acknowledged either way
              return;
            }
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
            if (res.status === 201) {
              acknowledged.push(b.voterAddress);
              if (acknowledged.length >= 40 && !signalled) {
                signalled = true;
                server.child.kill('SIGTERM');
              }
            } else {
              reasons.add((await res.json()).reason);
            }
          }),
        );
        expect(signalled).toBe(true);
        expect(await exit).toBe(0);
        for (const status of Object.keys(statuses)) expect(['201', '503']).toContain(status);
        for (const reason of reasons) expect(['SHUTTING_DOWN', 'DATABASE_UNAVAILABLE']).toContain(reason);

        server = await startServerProcess({ DATABASE_URL: db.url! }, { dataDir });
        api = apiClient(server.url);
        const stored = await sql<{ voter_address: string }[]>`
          select voter_address from votes where proposal_id = ${proposal.proposalId}`;
        const storedSet = new Set(stored.map((r) => r.voter_address.toLowerCase()));
        for (const voter of acknowledged) expect(storedSet.has(voter.toLowerCase()), voter).toBe(true);
        const results = (await api.get(`/votes/proposal/${proposal.proposalId}/results`)).body;
        expect(results.totalVotes).toBe(stored.length);
      } finally {
        await server.stop();
        await sql.end();
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    240_000,
  );

  it('SHUTDOWN_DELAY: after SIGTERM /ready is 503 while requests are still served; a second signal ends the delay', async () => {
    // a delay no test run reaches: the second signal is what ends it
    const server = await startServerProcess({ SHUTDOWN_DELAY: '10m' });
    try {
      const exit = new Promise<number | null>((resolve) =>
        server.child.once('exit', (code) => resolve(code)),
      );
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
      server.child.kill('SIGTERM');
      // wait for the condition: the signal is handled asynchronously
      let ready: Response;
      do ready = await fetch(`${server.url}/ready`);
      while (ready.status === 200);
      expect(ready.status).toBe(503);
      expect((await ready.json()).checks.shutdown).toBe(true);
      // still serving: a balancer that has not polled yet loses nothing
      const list = await fetch(`${server.url}/daos`);
      expect(list.status).toBe(200);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
