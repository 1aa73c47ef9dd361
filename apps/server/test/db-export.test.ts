import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { maxEventId } from '@plenum/core';
import { MIGRATIONS_DIR } from '@plenum/db';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { freshDatabase, TEST_DB, type TestApp } from './support/app';
import { CLI_TIMEOUT_MS, runCli, startOnDataDir } from './support/embedded';
import { trpcSubscriber, until } from './support/events';
import { memberUser, uniqueEmail } from './support/factories';
import {
  addMember,
  createDao,
  createProposal,
  type Member,
  signedVote,
  walletMembers,
} from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { PNG_1x1, uploadBytes } from './support/storage';

/**
 * `npm run db:export` (docs/operations.md, "Moving off the embedded defaults"): an instance on the embedded
 * defaults is filled through the API, stopped and exported by the real command; the dump goes into a new
 * database on the test PostgreSQL server with the documented psql command; the server started on that
 * database answers every read as before.
 */

describe('db:export refuses', () => {
  it(
    'a data dir without a database: exit code 2, one line, nothing created',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'plenum-export-empty-'));
      try {
        const out = path.join(dir, 'plenum.sql');
        const r = await runCli('db-export', ['--out', out], { DATA_DIR: dir });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.trim().split('\n')).toEqual([
          `db:export: no embedded database in ${path.join(dir, 'pg')} (DATA_DIR=${dir}): nothing to export`,
        ]);
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TIMEOUT_MS + 10_000,
  );

  // (on PostgreSQL the move below checks the same refusal)
  it.runIf(TEST_DB === 'pglite')(
    'a database a running server holds open; once it stopped, the dump is written (file and standard output)',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-export-busy-'));
      const out = path.join(dataDir, 'plenum.sql');
      let t: TestApp | undefined = await startOnDataDir(dataDir);
      try {
        const user = await memberUser(apiClient(t.url));
        const busy = await runCli('db-export', ['--out', out], { DATA_DIR: dataDir });
        expect(busy.code, busy.stderr).toBe(2);
        expect(busy.stderr.trim().split('\n')).toHaveLength(1);
        expect(busy.stderr).toContain(`process ${process.pid} `);
        expect(existsSync(out)).toBe(false);

        await t.close();
        t = undefined;
        const r = await runCli('db-export', ['--out', out], { DATA_DIR: dataDir });
        expect(r.code, r.stderr).toBe(0);
        const dump = readFileSync(out, 'utf8');
        expect(dump.includes(user.email)).toBe(true);
        const piped = await runCli('db-export', ['--out', '-'], { DATA_DIR: dataDir });
        expect(piped.code, piped.stderr).toBe(0);
        expect(piped.stdout.toString('utf8') === dump).toBe(true);
      } finally {
        await t?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    4 * CLI_TIMEOUT_MS,
  );
});

/** psql of Debian's postgresql (the newest installed), else whatever is on PATH */
function psqlPath(): string {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const p = `/usr/lib/postgresql/${v}/bin/psql`;
    if (existsSync(p)) return p;
  }
  return 'psql';
}

function psql(args: string[]) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile(
      psqlPath(),
      args,
      { timeout: 120_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        const code = err ? (err as { code?: unknown }).code : 0;
        if (code === 'ENOENT')
          resolve({ code: null, stderr: "psql not found: install Debian's postgresql-client" });
        else resolve({ code: typeof code === 'number' ? code : null, stderr });
      },
    );
  });
}

async function appliedMigrations(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    return row!.n as number;
  } finally {
    await sql.end();
  }
}

interface Filled {
  admin: Member;
  users: Member[];
  daoId: string;
  proposalIds: string[];
  cids: string[];
}

/** users, a DAO with members, two proposals with session and signed votes, files with pins, events */
async function fill(api: ApiClient, adminEmail: string): Promise<Filled> {
  const admin = await memberUser(api, { email: adminEmail });
  const alice = await memberUser(api);
  const bob = await memberUser(api);
  const { daoId } = await createDao(api, admin);
  await addMember(api, admin, daoId, alice.wallet.address);
  await addMember(api, admin, daoId, bob.wallet.address);
  const wallets = await walletMembers(api, admin, daoId, 3);
  // an admin's changes to an account, in the audit log
  const carol = await memberUser(api);
  for (const [action, body] of [
    ['suspend', { reason: 'spam' }],
    ['reactivate', { reason: 'appeal' }],
  ] as const) {
    const res = await api.post(`/admin/users/${carol.id}/${action}`, body, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const first = await createProposal(api, admin, daoId);
  const second = await createProposal(api, alice, daoId, {
    title: 'Paint the hall',
    proposalData: { colour: 'green' },
  });

  const vote = async (body: Record<string, unknown>, token?: string) => {
    const res = await api.post('/votes', body, token ? { token } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  for (const [user, choice] of [
    [admin, 'For'],
    [alice, 'Against'],
    [bob, 'For'],
  ] as const)
    await vote(
      {
        daoId,
        proposalId: first.proposalId,
        voterAddress: user.wallet.address,
        choice,
        comment: `${choice}!`,
      },
      user.token,
    );
  for (const [i, w] of wallets.entries())
    await vote(
      await signedVote(w, { daoId, proposalId: first.proposalId, choice: ['For', 'Abstain', 'Against'][i]! }),
    );
  await vote(await signedVote(wallets[0]!, { daoId, proposalId: second.proposalId, choice: 'Against' }));
  await vote(
    { daoId, proposalId: second.proposalId, voterAddress: bob.wallet.address, choice: 'For' },
    bob.token,
  );

  const text = await uploadBytes(
    api,
    alice.token,
    'minutes of the first meeting\n',
    'minutes.txt',
    'text/plain',
  );
  const png = await uploadBytes(api, bob.token, PNG_1x1, 'dot.png', 'image/png');
  expect([text.status, png.status]).toEqual([201, 201]);
  // a second owner of the same content: recorded `pinning`, then verified by the pin verifier
  const pinned = await api.post(`/ipfs/pin/${text.body.cid}`, undefined, { token: bob.token });
  expect(pinned.status, JSON.stringify(pinned.body)).toBe(201);
  // wait for the condition (the verifier's work), however long the machine takes: the test's timeout bounds it
  while ((await api.get(`/pins?cid=${text.body.cid}&status=pinned`, { token: bob.token })).body.count !== 1) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    admin,
    users: [admin, alice, bob],
    daoId,
    proposalIds: [first.proposalId, second.proposalId],
    cids: [text.body.cid, png.body.cid],
  };
}

/** what the API answers about everything fill() made, read by each owner and by the admin */
async function snapshot(url: string, f: Filled) {
  const api = apiClient(url);
  const reads: { path: string; as?: string; status: number; body: unknown }[] = [];
  const read = async (p: string, user?: Member) => {
    const res = await api.get(p, user ? { token: user.token } : {});
    reads.push({ path: p, as: user?.email, status: res.status, body: res.body });
  };
  for (const u of f.users) {
    await read('/auth/me', u);
    await read(`/users/${u.id}`, u);
    await read('/auth/wallets', u);
    await read('/pins?status=queued,pinning,pinned,failed&limit=1000', u);
  }
  await read('/admin/users?limit=100', f.admin);
  await read('/admin/audit-log?limit=100', f.admin);
  await read('/daos');
  await read(`/daos/${f.daoId}`);
  await read(`/proposals/dao/${f.daoId}`);
  for (const id of f.proposalIds) {
    await read(`/proposals/${id}`);
    await read(`/votes/proposal/${id}`);
    await read(`/votes/proposal/${id}/results`);
  }
  for (const cid of f.cids) {
    const file = await fetch(`${url}/ipfs/file/${cid}`);
    const sha256 = createHash('sha256')
      .update(Buffer.from(await file.arrayBuffer()))
      .digest('hex');
    reads.push({ path: `/ipfs/file/${cid}`, status: file.status, body: sha256 });
  }
  return reads;
}

/** every stored event, replayed by the tRPC stream from the start up to lastId */
async function replay(t: TestApp, token: string, lastId: number) {
  const sub = trpcSubscriber(t, token, { lastEventId: 0 });
  try {
    await until(
      () => sub.events.some((e) => e.id === lastId) || sub.errors.length > 0,
      `event ${lastId}`,
      30_000,
    );
    expect(sub.errors).toEqual([]);
    return sub.events;
  } finally {
    sub.close();
  }
}

describe.runIf(TEST_DB === 'postgres')('moving an embedded instance to PostgreSQL', () => {
  it(
    'db:export, the documented psql import, and the server on DATABASE_URL answers as before',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-export-'));
      const dumpFile = path.join(dataDir, 'plenum.sql');
      const adminEmail = uniqueEmail('admin');
      const env = { ADMIN_EMAILS: adminEmail };
      let target: { url: string; drop: () => Promise<void> } | undefined;
      let t: TestApp | undefined = await startOnDataDir(dataDir, env);
      try {
        expect(t.databaseUrl).toBeUndefined();
        const filled = await fill(apiClient(t.url), adminEmail);
        const before = await snapshot(t.url, filled);
        // every read answered, with the data in it (so "equal after the move" means something)
        expect(before.filter((r) => r.status !== 200)).toEqual([]);
        const body = (p: string, as?: Member) =>
          before.find((r) => r.path === p && r.as === as?.email)!.body as any;
        expect(body(`/votes/proposal/${filled.proposalIds[0]}`).items).toHaveLength(6);
        expect(body('/pins?status=queued,pinning,pinned,failed&limit=1000', filled.users[2]).count).toBe(2);
        expect(body('/admin/users?limit=100', filled.admin).users).toHaveLength(4);
        expect(body('/admin/audit-log?limit=100', filled.admin).items.map((e: any) => e.action)).toEqual([
          'user.reactivate',
          'user.suspend',
        ]);
        const lastEvent = await maxEventId(t.app.svc);
        expect(lastEvent).toBeGreaterThanOrEqual(1 + 2 + 8);
        const eventsBefore = await replay(t, filled.admin.token, lastEvent);
        expect(eventsBefore.map((e) => e.type).sort()).toEqual(
          ['dao_created', ...Array(2).fill('proposal_submitted'), ...Array(8).fill('vote_cast')].sort(),
        );

        // PGlite takes no lock: the command refuses while this process holds the database
        const busy = await runCli('db-export', ['--out', dumpFile], { DATA_DIR: dataDir });
        expect(busy.code, busy.stderr).toBe(2);
        expect(busy.stderr.trim().split('\n')).toHaveLength(1);
        expect(busy.stderr).toContain(`process ${process.pid} `);
        expect(busy.stderr).toContain('stop the Plenum server first');
        expect(existsSync(dumpFile)).toBe(false);

        await t.close();
        t = undefined;
        const exported = await runCli('db-export', ['--out', dumpFile], { DATA_DIR: dataDir });
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stderr).toContain(`wrote ${dumpFile}`);
        const dump = readFileSync(dumpFile, 'utf8');
        // (booleans: a failing match would print the whole dump)
        expect(dump.includes('CREATE TABLE drizzle.__drizzle_migrations')).toBe(true);
        expect(/^SET transaction_timeout/m.test(dump)).toBe(false);
        expect(existsSync(`${dumpFile}.partial`)).toBe(false);

        // a new, empty database on the test server (the test runs on the postgres project only)
        const fresh = await freshDatabase();
        target = { url: fresh.url!, drop: fresh.drop };
        const imported = await psql([
          target.url,
          '-X',
          '-v',
          'ON_ERROR_STOP=1',
          '--single-transaction',
          '-f',
          dumpFile,
        ]);
        expect(imported.code, imported.stderr).toBe(0);
        expect(imported.stderr).toBe('');
        const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'));
        expect(await appliedMigrations(target.url)).toBe(journal.entries.length);

        t = await startOnDataDir(dataDir, { ...env, DATABASE_URL: target.url });
        expect(t.app.svc.db).toBeDefined();
        const ready = await apiClient(t.url).get('/ready');
        expect(ready.status, JSON.stringify(ready.body)).toBe(200);
        expect(ready.body.checks).toMatchObject({ database: 'ok', migrations: 'ok' });
        // the migrations came across: starting applied none again
        expect(await appliedMigrations(target.url)).toBe(journal.entries.length);

        expect(await snapshot(t.url, filled)).toEqual(before);
        expect(await replay(t, filled.admin.token, lastEvent)).toEqual(eventsBefore);

        // and it goes on: a new vote gets the next event id (the sequences came across)
        const api = apiClient(t.url);
        const [, alice] = filled.users;
        const res = await api.post(
          '/votes',
          {
            daoId: filled.daoId,
            proposalId: filled.proposalIds[1],
            voterAddress: alice!.wallet.address,
            choice: 'For',
          },
          { token: alice!.token },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(await maxEventId(t.app.svc)).toBeGreaterThan(lastEvent);
      } finally {
        await t?.close();
        await target?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    // three cold starts of commands, two server starts, psql
    4 * CLI_TIMEOUT_MS,
  );
});
