import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { freshDatabase, TEST_DB } from './support/app';
import { memberUser } from './support/factories';
import { createDao, createProposal, signedVote, walletMembers } from './support/governance';
import { apiClient } from './support/http';

/**
 * Reliability (docs/operations.md, "Benchmarks"): `kill -9` of a server under vote load loses no acknowledged
 * vote and leaves tallies equal to a recount. The server runs as a real child process on real PostgreSQL.
 */
const serverDir = path.resolve(import.meta.dirname, '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function startServer(databaseUrl: string, dataDir: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_DISABLED: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

describe('crash safety of votes', () => {
  it.runIf(TEST_DB === 'postgres')(
    'kill -9 under vote load loses no acknowledged vote; tallies equal a recount',
    async () => {
      const db = await freshDatabase();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-crash-'));
      const sql = postgres(db.url!, { max: 2, onnotice: () => {} });
      let server = await startServer(db.url!, dataDir);
      try {
        let api = apiClient(server.url);
        const owner = await memberUser(api);
        const dao = await createDao(api, owner);
        const wallets = await walletMembers(api, owner, dao.daoId, 250);
        const proposal = await createProposal(api, owner, dao.daoId);
        const choices = ['For', 'Against', 'Abstain'];
        const ballots = await Promise.all(
          wallets.map((w, i) =>
            signedVote(w, { daoId: dao.daoId, proposalId: proposal.proposalId, choice: choices[i % 3]! }),
          ),
        );

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

        server = await startServer(db.url!, dataDir);
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
        expect(await recount()).toBe(wallets.length);
      } finally {
        server.child.kill('SIGKILL');
        await sql.end();
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
