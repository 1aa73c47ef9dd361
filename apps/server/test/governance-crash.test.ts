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
 * Reliability (docs/operations.md, "Benchmarks"): `kill -9` of a server under vote load loses no acknowledged
 * vote and leaves tallies equal to a recount. The server runs as a real child process on real PostgreSQL.
 */
describe('crash safety of votes', () => {
  it.runIf(TEST_DB === 'postgres')(
    'kill -9 under vote load loses no acknowledged vote; tallies equal a recount',
    async () => {
      const db = await freshDatabase();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-crash-'));
      const sql = postgres(db.url!, { max: 2, onnotice: () => {} });
      let server = await startServerProcess({ DATABASE_URL: db.url! }, { dataDir });
      try {
        let api = apiClient(server.url);
        const { proposal, ballots } = await proposalWithBallots(api, 250);

        // all votes at once; kill -9 once a few dozen are acknowledged
        const acknowledged: string[] = [];
        let killed = false;
        await Promise.all(
          ballots.map(async (b) => {
            try {
              const res = await fetch(`${server.url}/votes`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(b),
              });
              if (res.status === 201) {
                acknowledged.push(b.voterAddress);
                if (acknowledged.length >= 40 && !killed) {
                  killed = true;
                  server.child.kill('SIGKILL');
                }
              }
            } catch {
              // the server died under this request: not acknowledged
            }
          }),
        );
        expect(killed).toBe(true);
        const dead = server.child;
        if (dead.exitCode === null && dead.signalCode === null)
          await new Promise((r) => dead.once('exit', r));

        server = await startServerProcess({ DATABASE_URL: db.url! }, { dataDir });
        api = apiClient(server.url);
        for (const voter of acknowledged) {
          const res = await api.get(`/votes/proposal/${proposal.proposalId}/voter/${voter}`);
          expect(res.status, voter).toBe(200);
        }

        const recount = async () => {
          const rows = await sql<{ choice: string; n: string }[]>`
          select choice, count(*)::text as n from votes where proposal_id = ${proposal.proposalId} group by choice`;
          const results = (await api.get(`/votes/proposal/${proposal.proposalId}/results`)).body;
          const counted = Object.fromEntries(rows.map((r) => [r.choice, Number(r.n)]));
          for (const o of results.options as { option: string; votes: number }[])
            expect(o.votes, o.option).toBe(counted[o.option] ?? 0);
          expect(results.totalVotes).toBe(rows.reduce((a, r) => a + Number(r.n), 0));
          return results.totalVotes as number;
        };
        const afterCrash = await recount();
        expect(afterCrash).toBeGreaterThanOrEqual(acknowledged.length);

        // everyone else votes now: unacknowledged votes either landed before the crash (409) or land now (201)
        const retry = await Promise.all(
          ballots.filter((b) => !acknowledged.includes(b.voterAddress)).map((b) => api.post('/votes', b)),
        );
        for (const r of retry) expect([201, 409]).toContain(r.status);
        expect(await recount()).toBe(ballots.length);
      } finally {
        await server.stop();
        await sql.end();
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
