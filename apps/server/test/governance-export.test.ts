import http from 'node:http';
import type { Logger } from '@plenum/core';
import { proposals } from '@plenum/db';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { createDao, createProposal, signedVote, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { startServerProcess } from './support/server-process';

/**
 * GET /votes/proposal/{proposalId}/export (docs/governance.md, "Exporting the votes"): the file equals the
 * votes cast, CSV per RFC 4180 with formula injection defused, the list's access rule, input errors, one
 * snapshot while votes are cast, a client that goes away mid-stream, and (PostgreSQL) memory that does not
 * grow with the number of votes.
 */

let t: TestApp;
let api: ApiClient;
const errors: string[] = [];
/** exports the server saw cut short by their client */
let cutShort = 0;

beforeAll(async () => {
  // every error logged, by the app or its request loggers: an export cut short must log none
  const watch = (l: Logger): Logger => {
    const w = Object.create(l) as Logger;
    w.error = ((...args: unknown[]) => {
      errors.push(JSON.stringify(args).slice(0, 500));
      return (l.error as (...a: unknown[]) => void).apply(l, args);
    }) as Logger['error'];
    w.debug = ((...args: unknown[]) => {
      if (JSON.stringify(args).includes('the client went away')) cutShort++;
      return (l.debug as (...a: unknown[]) => void).apply(l, args);
    }) as Logger['debug'];
    w.child = ((bindings: Record<string, unknown>) =>
      watch(l.child(bindings) as Logger)) as unknown as Logger['child'];
    return w;
  };
  t = await startTestApp({ logger: watch });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const NONE = '00000000-0000-4000-8000-000000000000';
const COLUMNS = [
  'voteId',
  'voter',
  'choice',
  'weight',
  'ownWeight',
  'delegatedWeight',
  'comment',
  'time',
  'signature',
  'signedTimestamp',
];

/** RFC 4180: records end with CRLF; quoted fields may hold commas, CR, LF and doubled quotes */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        cell += text[i++];
      }
    }
    record.push(cell);
    if (text[i] === ',') i++;
    else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else if (i < text.length) throw new Error(`expected a separator at ${i}: ${JSON.stringify(text[i])}`);
  }
  if (record.length) throw new Error('the last record does not end with CRLF');
  return records;
}

/** a CSV cell back to its text: the apostrophe put before =, +, -, @, TAB and CR comes off */
/** the characters a cell may not start with unprotected (docs/governance.md, "Exporting the votes") */
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\s\p{Cc}]/u;
const unprotect = (cell: string) =>
  cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;

interface Row {
  voteId: string;
  voter: string;
  choice: string | null;
  weight: string;
  ownWeight: string;
  delegatedWeight: string;
  comment: string;
  time: string;
  signature: string | null;
  signedTimestamp: number | null;
}

/** the CSV's records as the JSON export's objects (empty cells as null where a column may be null) */
function csvRows(text: string): Row[] {
  const [header, ...records] = parseCsv(text);
  expect(header).toEqual(COLUMNS);
  return records.map((r) => {
    const o = Object.fromEntries(COLUMNS.map((c, i) => [c, unprotect(r[i]!)])) as Record<string, string>;
    return {
      ...(o as unknown as Row),
      signature: o.signature || null,
      signedTimestamp: o.signedTimestamp ? Number(o.signedTimestamp) : null,
    };
  });
}

/** every vote of the list (newest first), page by page, as the export shows them */
async function listedVotes(proposalId: string): Promise<Row[]> {
  const all: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/votes/proposal/${proposalId}?page=${page}&limit=200`);
    expect(res.status).toBe(200);
    for (const v of res.body.items)
      all.push({
        voteId: v.voteId,
        voter: v.voterAddress,
        choice: v.choice,
        weight: v.weight,
        ownWeight: v.ownWeight,
        delegatedWeight: v.delegatedWeight,
        comment: v.comment,
        time: v.createdAt,
        signature: v.signature,
        signedTimestamp: v.typedData ? v.typedData.message.timestamp : null,
      });
    if (page >= res.body.pagination.totalPages) return all;
  }
}

const exportOf = (proposalId: string, format: string, token?: string) =>
  api.get(`/votes/proposal/${proposalId}/export?format=${format}`, { token });

/** `n` votes written straight into the table (as vote-commit would leave them), a few sharing a timestamp */
async function seedVotes(proposalId: string, daoId: string, n: number, commentLength = 20, prefix = '0x9') {
  await t.app.dbHandle.db.execute(
    sql.raw(`insert into votes (proposal_id, dao_id, voter_address, choice, weight, comment, created_at, updated_at)
      select '${proposalId}', '${daoId}', '${prefix}' || lpad(k::text, ${41 - prefix.length}, '0'),
        case when k % 3 = 0 then 'For' when k % 3 = 1 then 'Against' else 'Abstain' end, k,
        rpad('vote ' || k || ', "quoted"', ${commentLength}, '.'), c, c
      from generate_series(1, ${n}) k,
      lateral (select now() - interval '1 hour' + (k / 4) * interval '1 millisecond'
                 + (k % 2) * interval '1 microsecond' as c) t`),
  );
}

async function proposalOf(n = 0, rules?: Record<string, unknown>) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, rules);
  const wallets = await walletMembers(api, owner, dao.daoId, n);
  const proposal = await createProposal(api, owner, dao.daoId);
  return { owner, dao, wallets, proposal };
}

const TRICKY = [
  'plain',
  'a, b',
  'she said "yes"',
  'two\nlines',
  'cr\r\nlf',
  '=HYPERLINK("http://evil.example","x")',
  '+1',
  '-2',
  '@SUM(A1)',
  '\tindented',
  // a spreadsheet trims leading whitespace and folds fullwidth signs, then runs what follows
  '\n=1+1',
  ' =1+1',
  '\u00a0=1+1',
  '\uFF1D1+1',
  '\uFF0B1',
  '\uFF0D1',
  '\uFF20SUM(A1)',
  '',
];

describe('GET /votes/proposal/{proposalId}/export', () => {
  it('CSV and JSON hold exactly the votes cast, signed ones with their signature, oldest first', async () => {
    const { owner, dao, wallets, proposal } = await proposalOf(TRICKY.length);
    const choices = ['For', 'Against', 'Abstain'];
    const ballots = await Promise.all(
      wallets.map((w, i) =>
        signedVote(w, {
          daoId: dao.daoId,
          proposalId: proposal.proposalId,
          choice: choices[i % 3]!,
          comment: TRICKY[i]!,
        }),
      ),
    );
    for (const b of ballots) expect((await api.post('/votes', b)).status).toBe(201);
    // a session vote: no signature
    const session = await api.post(
      '/votes',
      {
        proposalId: proposal.proposalId,
        daoId: dao.daoId,
        voterAddress: owner.wallet.address,
        choice: 'Against',
        comment: '=1+1, "formula"\nnext',
      },
      { token: owner.token },
    );
    expect(session.status).toBe(201);

    const listed = (await listedVotes(proposal.proposalId)).reverse();
    expect(listed).toHaveLength(TRICKY.length + 1);
    const chronological = [...listed].sort((a, b) =>
      a.time === b.time ? (a.voteId < b.voteId ? -1 : 1) : a.time < b.time ? -1 : 1,
    );

    const csv = await exportOf(proposal.proposalId, 'csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="proposal-${proposal.proposalId}-votes.csv"`,
    );
    expect(csvRows(csv.text)).toEqual(chronological);
    // no cell a spreadsheet would run: every comment that starts with a formula character is defused
    for (const record of parseCsv(csv.text).slice(1))
      for (const cell of record) expect(cell).not.toMatch(FORMULA_START);
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv.text).toContain('"two\nlines"');

    const json = await exportOf(proposal.proposalId, 'json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toBe(
      `attachment; filename="proposal-${proposal.proposalId}-votes.json"`,
    );
    expect(json.body).toEqual(chronological);

    // signed votes carry their signature and signed timestamp, the session vote neither
    const bySigner = new Map(ballots.map((b) => [b.voterAddress, b]));
    for (const row of json.body as Row[]) {
      const b = bySigner.get(row.voter as `0x${string}`);
      if (b) expect([row.signature, row.signedTimestamp]).toEqual([b.signature, b.timestamp]);
      else
        expect([row.voter, row.signature, row.signedTimestamp]).toEqual([owner.wallet.address, null, null]);
    }
    // the same bytes again: the order is stable
    expect((await exportOf(proposal.proposalId, 'csv')).text).toBe(csv.text);
  });

  it('pages through thousands of votes in (time, id) order, ties and microseconds included', async () => {
    const { dao, proposal } = await proposalOf();
    await seedVotes(proposal.proposalId, dao.daoId, 2_503);
    const json = await exportOf(proposal.proposalId, 'json');
    expect(json.status).toBe(200);
    const rows = json.body as Row[];
    expect(rows).toHaveLength(2_503);
    expect(new Set(rows.map((r) => r.voteId)).size).toBe(2_503);
    expect(rows.map((r) => r.weight).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 2_503 }, (_, i) => String(i + 1)),
    );
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.time <= rows[i]!.time).toBe(true);
    const csv = await exportOf(proposal.proposalId, 'csv');
    expect(csvRows(csv.text)).toEqual(rows);
    // an empty proposal: just the header, or an empty array
    const empty = (await proposalOf()).proposal.proposalId;
    expect((await exportOf(empty, 'csv')).text).toBe(`${COLUMNS.join(',')}\r\n`);
    const none = await exportOf(empty, 'json');
    expect([none.status, none.body]).toEqual([200, []]);
  });

  it('refuses a bad format, a malformed id and unknown parameters (400), an unknown proposal (404)', async () => {
    const { proposal } = await proposalOf();
    const id = proposal.proposalId;
    for (const q of ['', '?format=xml', '?format=CSV', '?format=csv&format=json', '?format=']) {
      const res = await api.get(`/votes/proposal/${id}/export${q}`);
      expect([res.status, res.body.code, res.body.reason], q).toEqual([
        400,
        'BAD_REQUEST',
        'VALIDATION_FAILED',
      ]);
      expect(
        res.body.issues.map((i: { path: string }) => i.path),
        q,
      ).toEqual(['format']);
    }
    const extra = await api.get(`/votes/proposal/${id}/export?format=csv&page=2`);
    expect([extra.status, extra.body.reason]).toEqual([400, 'VALIDATION_FAILED']);
    const nul = await api.get(`/votes/proposal/${id}/export?format=csv%00`);
    expect([nul.status, nul.body.issues[0].code]).toEqual([400, 'nul_character']);

    const malformed = await api.get('/votes/proposal/not-a-uuid/export?format=csv');
    expect([malformed.status, malformed.body.reason]).toEqual([400, 'VALIDATION_FAILED']);
    expect(malformed.body.issues.map((i: { path: string }) => i.path)).toEqual(['proposalId']);
    // the same as the votes list answers for that id
    expect((await api.get('/votes/proposal/not-a-uuid')).status).toBe(400);

    const unknown = await api.get(`/votes/proposal/${NONE}/export?format=json`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await api.get(`/votes/proposal/${NONE}`)).status).toBe(404);
  });

  it('is as public as the votes list, for any DAO status; HEAD answers the headers', async () => {
    const { owner, dao, proposal } = await proposalOf();
    await seedVotes(proposal.proposalId, dao.daoId, 3);
    const off = await api.post(`/daos/${dao.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });
    expect(off.status).toBe(200);
    const outsider = await memberUser(api);
    for (const token of [undefined, outsider.token, owner.token]) {
      const list = await api.get(`/votes/proposal/${proposal.proposalId}`, { token });
      const exported = await exportOf(proposal.proposalId, 'json', token);
      expect([exported.status, exported.body.length]).toEqual([list.status, list.body.items.length]);
    }
    const head = await fetch(`${t.url}/votes/proposal/${proposal.proposalId}/export?format=csv`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(head.headers.get('content-disposition')).toContain('attachment;');
    expect(await head.text()).toBe('');
    const badHead = await fetch(`${t.url}/votes/proposal/${proposal.proposalId}/export?format=x`, {
      method: 'HEAD',
    });
    expect(badHead.status).toBe(400);
  });

  it('is refused while the DAO hides results (409 RESULTS_HIDDEN, the voter too); at the end it has every choice', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, {
      threshold: 50,
      minVotingPeriod: 0,
      tokenWeighted: false,
      resultsVisibility: 'after-end',
    });
    const [wallet] = await walletMembers(api, owner, dao.daoId, 1);
    const proposal = await createProposal(api, owner, dao.daoId);
    const signed = await signedVote(wallet!, {
      daoId: dao.daoId,
      proposalId: proposal.proposalId,
      choice: 'For',
    });
    expect((await api.post('/votes', signed)).status).toBe(201);
    const own = { proposalId: proposal.proposalId, daoId: dao.daoId, voterAddress: owner.wallet.address };
    expect((await api.post('/votes', { ...own, choice: 'Against' }, { token: owner.token })).status).toBe(
      201,
    );

    for (const token of [undefined, owner.token]) {
      for (const format of ['csv', 'json']) {
        const refused = await exportOf(proposal.proposalId, format, token);
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ code: 'CONFLICT', reason: 'RESULTS_HIDDEN' });
        expect(refused.headers.get('content-disposition')).toBeNull();
      }
    }

    // the end (moved into the past in the database): the export finalizes the proposal and shows all
    await t.app.svc.db
      .update(proposals)
      .set({ endTime: new Date(Date.now() - 1000) })
      .where(eq(proposals.id, proposal.proposalId));
    const json = await exportOf(proposal.proposalId, 'json');
    expect(json.status).toBe(200);
    const rows = json.body as Row[];
    expect(new Map(rows.map((r) => [r.voter, r.choice]))).toEqual(
      new Map([
        [signed.voterAddress, 'For'],
        [owner.wallet.address, 'Against'],
      ]),
    );
    expect(rows.find((r) => r.voter === signed.voterAddress)!.signature).toBe(signed.signature);
  });

  it('is one snapshot: votes cast or changed while the export runs are not in it, and break nothing', async () => {
    const { dao, wallets, proposal } = await proposalOf(2, {
      threshold: 50,
      minVotingPeriod: 0,
      tokenWeighted: false,
      allowVoteChange: true,
    });
    const ids = { daoId: dao.daoId, proposalId: proposal.proposalId };
    const [changer, late] = wallets as [(typeof wallets)[0], (typeof wallets)[0]];
    // a vote from before the export, changed while it runs
    expect((await api.post('/votes', await signedVote(changer, { ...ids, choice: 'For' }))).status).toBe(201);
    await seedVotes(proposal.proposalId, dao.daoId, 20_000, 300);
    const res = await openExport(proposal.proposalId, 'csv');
    // the export has begun (its first rows arrived) and waits for this client, which reads nothing now
    await res.firstData;
    expect((await api.post('/votes', await signedVote(late, { ...ids, choice: 'For' }))).status).toBe(201);
    const change = await signedVote(
      changer,
      { ...ids, choice: 'Against' },
      Math.floor(Date.now() / 1000) + 1,
    );
    expect((await api.post('/votes', change)).status).toBe(201);
    const rows = csvRows(await res.rest());
    expect(rows).toHaveLength(20_001);
    expect(rows.some((r) => r.voter === late.address)).toBe(false);
    expect(rows.filter((r) => r.voter === changer.address).map((r) => r.choice)).toEqual(['For']);
    // the next export has the late vote and only the changed vote, as the list does
    const after = (await exportOf(proposal.proposalId, 'json')).body as Row[];
    expect(after).toHaveLength(20_002);
    expect(after.filter((r) => r.voter === changer.address).map((r) => r.choice)).toEqual(['Against']);
    expect(after.at(-1)!.voter).toBe(changer.address);
    const listed = await listedVotes(proposal.proposalId);
    expect(listed.filter((r) => r.voter === changer.address).map((r) => r.choice)).toEqual(['Against']);
    expect(errors).toEqual([]);
  });

  it('a client that goes away mid-stream ends the database work; the server stays healthy', async () => {
    const { dao, proposal } = await proposalOf();
    // ~25 MB of CSV: far more than the socket buffers hold, so the server is mid-stream when the client leaves
    await seedVotes(proposal.proposalId, dao.daoId, 25_000, 1_000);
    const pool = t.app.dbHandle.pool;
    const res = await openExport(proposal.proposalId, 'json');
    await res.firstData;
    // while it waits for the client the export holds no transaction (each page is its own statement): a
    // held one would stay, while a background job's may be caught for a moment between its statements
    if (TEST_DB === 'postgres') await until(async () => (await idleInTransaction()) === 0);
    const cutBefore = cutShort;
    res.destroy();
    // the server noticed mid-stream (not after writing everything) and stopped reading
    await until(() => cutShort === cutBefore + 1);
    await until(() => pool.inUse === 0 && pool.waiting === 0);
    if (TEST_DB === 'postgres') await until(async () => (await idleInTransaction()) === 0);
    expect((await api.get('/health')).status).toBe(200);
    // a later export reads everything
    const again = await openExport(proposal.proposalId, 'csv');
    let records = 0;
    for (const ch of await again.rest()) if (ch === '\n') records++;
    // header and one line per vote (the comments have no line breaks)
    expect(records).toBe(25_001);
    expect(errors).toEqual([]);
  });
});

/** connections of the test database idle in a transaction (PostgreSQL) */
async function idleInTransaction(): Promise<number> {
  const rows = await t.app.dbHandle.db.execute(
    sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`,
  );
  return (Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows)[0]!.n as number;
}

/** polls a condition until it holds (bounded by the test's timeout) */
async function until(condition: () => boolean | Promise<boolean>) {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 20));
}

/** an export read by a client that holds it back: nothing is read after the first chunk until `rest()` */
async function openExport(proposalId: string, format: string) {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(`${t.url}/votes/proposal/${proposalId}/export?format=${format}`, resolve);
    req.on('error', reject);
  });
  expect(res.statusCode).toBe(200);
  res.setEncoding('utf8');
  const chunks: string[] = [];
  const firstData = new Promise<void>((resolve) =>
    res.once('data', (chunk: string) => {
      chunks.push(chunk);
      res.pause();
      resolve();
    }),
  );
  return {
    firstData,
    destroy: () => res.destroy(),
    async rest() {
      await firstData;
      res.on('data', (c: string) => chunks.push(c));
      res.resume();
      await new Promise((resolve, reject) => res.on('end', resolve).on('error', reject));
      return chunks.join('');
    },
  };
}

/**
 * Memory (PostgreSQL): 100,000 votes (34 MB of JSON) exported through the compiled server, a separate process
 * run with `--trace-gc`: after every full collection V8 prints the heap that is still live. The export
 * streams when the median live heap during the big export is no larger than during a warm-up export of a
 * fifth of its size. An export that held its text until the end measured 13.6 MB more (half of 34 MB held
 * at the median collection, less the warm-up's half of 7 MB); one that held the rows would keep far more.
 * The live heap, unlike the resident memory, does not count garbage not yet collected, so it does not move
 * with how busy the machine is. The old generation is capped (160 MB, some 70 MB above the idle server's
 * live heap) so that full collections run often.
 */
describe.runIf(TEST_DB === 'postgres')('memory of an export of 100,000 votes', () => {
  const VOTES = 100_000;
  const WARM_UP = 20_000;
  const BOUND_MB = 8;

  /** the live heap after each full collection, in MB, from --trace-gc lines (`Mark-Compact a (b) -> live (c) MB`) */
  const liveAfterFullGc = (trace: string) =>
    [...trace.matchAll(/Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(/g)].map((m) =>
      Number(m[1]),
    );

  it(`keeps the server's live heap within ${BOUND_MB} MB of a warm-up export five times smaller`, async () => {
    const db = await freshDatabase();
    const server = await startServerProcess(
      { DATABASE_URL: db.url, NODE_OPTIONS: '--max-old-space-size=160' },
      { nodeFlags: ['--trace-gc'], stdout: true },
    );
    const sqlc = postgres(db.url!, { max: 1, onnotice: () => {} });
    try {
      const proc = apiClient(server.url);
      const owner = await memberUser(proc);
      const dao = await createDao(proc, owner);
      const big = await createProposal(proc, owner, dao.daoId);
      const small = await createProposal(proc, owner, dao.daoId);
      const seed = (proposalId: string, n: number) =>
        sqlc.unsafe(
          `insert into votes (proposal_id, dao_id, voter_address, choice, weight, comment, created_at, updated_at)
           select '${proposalId}', '${dao.daoId}', '0x9' || lpad(k::text, 39, '0'),
             case when k % 3 = 0 then 'For' when k % 3 = 1 then 'Against' else 'Abstain' end,
             k::numeric * 1000000000000, 'comment ' || k || ', with "quotes" and words to read', c, c
           from generate_series(1, ${n}) k, lateral (select now() - interval '1 day' + k * interval '1 millisecond' as c) t`,
        );
      await seed(big.proposalId, VOTES);
      await seed(small.proposalId, WARM_UP);
      await sqlc.unsafe('vacuum analyze votes');

      const countRows = async (proposalId: string) => {
        const res = await fetch(`${server.url}/votes/proposal/${proposalId}/export?format=json`);
        expect(res.status).toBe(200);
        // one element per line: count the lines that open an object, chunk by chunk
        let rows = 0;
        let bytes = 0;
        let last = '\n';
        const decoder = new TextDecoder();
        for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(part, { stream: true });
          bytes += part.byteLength;
          for (let i = 0; i < text.length; i++) {
            if (text[i] === '{' && (i ? text[i - 1] : last) === '\n') rows++;
          }
          if (text.length) last = text[text.length - 1]!;
        }
        return { rows, bytes };
      };
      /** the full collections that ran while `run` did, read from the trace the server wrote meanwhile */
      const collectionsDuring = async <T>(run: () => Promise<T>) => {
        const from = server.stdout().length;
        const result = await run();
        return { result, live: liveAfterFullGc(server.stdout().slice(from)) };
      };

      // the warm-up brings code, caches and buffers to their working size
      const warm = await collectionsDuring(() => countRows(small.proposalId));
      expect(warm.result.rows).toBe(WARM_UP);
      const full = await collectionsDuring(() => countRows(big.proposalId));
      expect(full.result.rows).toBe(VOTES);
      // without full collections in both windows the figures would say nothing
      expect(warm.live.length).toBeGreaterThan(0);
      expect(full.live.length).toBeGreaterThan(0);
      // the median: one collection that happens to land on a full socket buffer does not move it, and an
      // export that held its text would hold half of it at the median of its collections
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const growth = median(full.live) - median(warm.live);
      console.log(
        `vote export: ${VOTES.toLocaleString('en')} votes, ${(full.result.bytes / 1e6).toFixed(1)} MB of JSON; ` +
          `server live heap (median after a full collection) ${median(warm.live).toFixed(1)} MB over ` +
          `${warm.live.length} collections in the warm-up (${WARM_UP.toLocaleString('en')} votes), ` +
          `${median(full.live).toFixed(1)} MB over ${full.live.length} in the export (at most ` +
          `${Math.max(...full.live).toFixed(1)}): growth ${growth.toFixed(1)} MB`,
      );
      expect(growth).toBeLessThan(BOUND_MB);
      expect(server.alive()).toBe(true);
    } finally {
      await sqlc.end();
      await server.stop();
      await db.drop();
    }
  }, 180_000);
});
