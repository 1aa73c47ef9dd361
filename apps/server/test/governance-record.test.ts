import { CarReader } from '@ipld/car';
import { ManualClock, type StorageRuntime } from '@plenum/core';
import {
  CID,
  publishDueRecords,
  publishRecord,
  RECORD_LEASE_MS,
  type RecordNode,
  recordAttestor,
  recordInputOf,
} from '@plenum/core/governance/record/index';
import { events, proposals } from '@plenum/db';
import { verifyRecord } from '@plenum/verify';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, signedVote, tick, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * The proposal record (docs/governance.md, "The proposal record") of real proposals on both databases,
 * through the API: the CID fixed by the closing step and carried by its event, the record published on
 * the node, the CAR downloaded over HTTP verifying with packages/verify and read by @ipld/car, and every
 * vote's receipt (POST /votes) proven by GET /votes/{voteId}/receipt. Then publishing itself: once under
 * concurrency, failures kept and retried, and a record that no longer builds to its CID refused.
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
const storage = () => t.app.svc.storage as StorageRuntime;
const attest = () => recordAttestor(t.app.svc.config.secretKey());

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

interface Cast {
  voteId: string;
  receipt: string;
}

/** a proposal after session and signed votes and two vote changes; closed (PASSED) unless `open` */
async function votedProposal(options: { open?: boolean } = {}) {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: false,
    allowVoteChange: true,
  });
  const [a, b] = [await memberUser(api), await memberUser(api)];
  for (const m of [a, b]) await addMember(api, owner, dao.daoId, m.wallet.address);
  const [w1, w2] = await walletMembers(api, owner, dao.daoId, 2);
  const p = await createProposal(api, owner, dao.daoId);
  const ids = { daoId: dao.daoId, proposalId: p.proposalId };
  const session = (m: typeof a, choice: string) =>
    api.post('/votes', { ...ids, voterAddress: m.wallet.address, choice }, { token: m.token });
  const signed = async (w: typeof w1, choice: string, comment?: string) =>
    api.post('/votes', await signedVote(w!, { ...ids, choice, comment }, nowS()));

  const casts = [
    await session(a, 'For'),
    await signed(w1, 'Against', 'first thought'),
    await session(b, 'Against'),
  ];
  clock.advance(2_000);
  casts.push(await session(a, 'Abstain'), await signed(w2, 'For'), await signed(w1, 'For'));
  for (const c of casts) expect(c.status, JSON.stringify(c.body)).toBe(201);
  if (!options.open) {
    clock.advance(25 * 3_600_000);
    await tick(t);
  }
  return { owner, proposalId: p.proposalId, daoId: dao.daoId, casts: casts.map((c) => c.body as Cast) };
}

const recordRow = async (proposalId: string) =>
  (await t.app.svc.db.select().from(proposals).where(eq(proposals.id, proposalId)))[0]!;

/** GET /proposals/{id}/record once the publisher stored it on the node */
async function published(proposalId: string) {
  await expect
    .poll(async () => (await api.get(`/proposals/${proposalId}/record`)).body?.publishedAt ?? null, {
      timeout: 30_000,
    })
    .not.toBeNull();
  return (await api.get(`/proposals/${proposalId}/record`)).body as {
    recordCid: string;
    publishedAt: string;
    car: string;
    publicKey: string;
    status: string;
  };
}

async function download(proposalId: string) {
  const res = await fetch(`${t.url}/proposals/${proposalId}/record.car`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.ipld.car; version=1');
  return new Uint8Array(await res.arrayBuffer());
}

describe('the record of a closed proposal, through the API', () => {
  it('is not there while the proposal is open: 409 RECORD_NOT_READY on the record, its CAR and a receipt', async () => {
    const p = await votedProposal({ open: true });
    expect((await api.get(`/proposals/${p.proposalId}`)).body).toMatchObject({
      recordCid: null,
      recordPublishedAt: null,
    });
    for (const path of [`/proposals/${p.proposalId}/record`, `/votes/${p.casts[0]!.voteId}/receipt`]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(409);
      expect(res.body).toMatchObject({ code: 'CONFLICT', reason: 'RECORD_NOT_READY' });
    }
    const car = await fetch(`${t.url}/proposals/${p.proposalId}/record.car`);
    expect(car.status).toBe(409);
    expect(((await car.json()) as { reason: string }).reason).toBe('RECORD_NOT_READY');
    // the casts' receipts exist already: the CIDs of their ballot leaves
    for (const c of p.casts) expect(CID.parse(c.receipt).code).toBe(0x71);
    expect((await api.get('/votes/00000000-0000-4000-8000-000000000000/receipt')).status).toBe(404);
    expect((await api.get('/proposals/00000000-0000-4000-8000-000000000000/record')).status).toBe(404);
    expect((await api.get('/proposals/not-a-uuid/record.car')).status).toBe(400);
  });

  it('gets its CID at the close, in the closing event; is published, downloads as a CAR that verifies, and proves every receipt', async () => {
    const p = await votedProposal();
    const proposal = (await api.get(`/proposals/${p.proposalId}`)).body as {
      recordCid: string;
      status: string;
    };
    expect(proposal.status).toBe('PASSED');
    expect(proposal.recordCid).toMatch(/^bafyrei/);
    const [closing] = await t.app.svc.db
      .select()
      .from(events)
      .where(and(eq(events.proposalId, p.proposalId), eq(events.type, 'proposal_status_changed')))
      .orderBy(sql`${events.id} desc`)
      .limit(1);
    expect(closing!.data).toMatchObject({ from: 'ACTIVE', to: 'PASSED', recordCid: proposal.recordCid });

    const record = await published(p.proposalId);
    expect(record).toMatchObject({
      recordCid: proposal.recordCid,
      status: 'PASSED',
      car: `${t.app.svc.config.storage.publicUrl}/proposals/${p.proposalId}/record.car`,
    });
    expect(record.publicKey).toBe(Buffer.from(attest()(new Uint8Array()).publicKey).toString('hex'));
    // stored and pinned on the node
    expect(await storage().node.isPinned(CID.parse(record.recordCid))).toBe(true);

    const car = await download(p.proposalId);
    // an independent reader: one root, the record's CID, and every block of it
    const reader = await CarReader.fromBytes(car);
    expect((await reader.getRoots()).map(String)).toEqual([record.recordCid]);
    expect(await reader.has(CID.parse(record.recordCid))).toBe(true);
    const key = new Uint8Array(Buffer.from(record.publicKey, 'hex'));
    const v = await verifyRecord(car, { key, expectedRoot: record.recordCid });
    expect(v.failures).toEqual([]);
    expect(v).toMatchObject({
      ok: true,
      recordCid: record.recordCid,
      status: 'PASSED',
      ballots: { counted: 4, replaced: 2, signed: 3, session: 3 },
    });

    // every vote's receipt, counted or replaced, is the leaf its receipt proves in the record
    const trees: string[] = [];
    for (const c of p.casts) {
      const res = await api.get(`/votes/${c.voteId}/receipt`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ voteId: c.voteId, recordCid: record.recordCid, leaf: c.receipt });
      trees.push(res.body.tree);
      expect((await verifyRecord(car, { key, receipt: res.body })).failures, c.voteId).toEqual([]);
    }
    expect(trees.sort()).toEqual(['ballots', 'ballots', 'ballots', 'ballots', 'replaced', 'replaced']);

    // a receipt of another proposal's record is not in this one
    const other = await votedProposal();
    await published(other.proposalId);
    const foreign = (await api.get(`/votes/${other.casts[2]!.voteId}/receipt`)).body;
    expect((await verifyRecord(car, { key, receipt: foreign })).failures).toEqual([
      { check: 'receipt', message: `ballot ${foreign.leaf} is not in this record` },
    ]);
  });

  it('a cancelled proposal has one too', async () => {
    const p = await votedProposal({ open: true });
    const cancel = await api.post(
      `/proposals/${p.proposalId}/cancel`,
      { reason: 'superseded' },
      { token: p.owner.token },
    );
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.recordCid).toMatch(/^bafyrei/);
    const record = await published(p.proposalId);
    expect(record.recordCid).toBe(cancel.body.recordCid);
    const v = await verifyRecord(await download(p.proposalId), {
      key: new Uint8Array(Buffer.from(record.publicKey, 'hex')),
    });
    expect(v.failures).toEqual([]);
    expect(v.status).toBe('CANCELLED');
  });
});

describe('publishing the record', () => {
  // the tests below drive publishing themselves
  beforeAll(() => t.app.recordPublisher.stop());

  it('happens once under concurrency: stored, pinned, marked published, and the CID is the one fixed at the close', async () => {
    const p = await votedProposal();
    const fixed = (await recordRow(p.proposalId)).recordCid;
    expect(fixed).toMatch(/^bafyrei/);
    const node = storage().node;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        publishRecord(t.app.svc, { proposalId: p.proposalId, node, attest: attest() }),
      ),
    );
    expect(outcomes.filter((o) => o !== null)).toEqual([fixed]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(7);
    const row = await recordRow(p.proposalId);
    expect(row).toMatchObject({
      recordCid: fixed,
      recordAttempts: 0,
      recordError: null,
      recordClaimedUntil: null,
    });
    expect(row.recordPublishedAt).not.toBeNull();
    expect(await node.isPinned(CID.parse(fixed!))).toBe(true);
    // nothing left to do
    expect(await publishRecord(t.app.svc, { proposalId: p.proposalId, node, attest: attest() })).toBeNull();
  });

  it('a failure is kept on the proposal and retried after its delay, by the pass', async () => {
    const node = storage().node;
    const down: RecordNode = {
      importCar: () => Promise.reject(new Error('the node is down')),
      pin: (cid, o) => node.pin(cid, o),
    };
    // earlier tests' proposals are published here too: the pass is global
    await publishDueRecords(t.app.svc, { node, attest: attest() });
    const q = await votedProposal();
    await expect(
      publishRecord(t.app.svc, { proposalId: q.proposalId, node: down, attest: attest() }),
    ).rejects.toThrow('the node is down');
    const failed = await recordRow(q.proposalId);
    expect(failed).toMatchObject({
      recordPublishedAt: null,
      recordAttempts: 1,
      recordError: 'the node is down',
    });
    expect(failed.recordClaimedUntil!.getTime()).toBe(clock.now().getTime() + 10_000);
    // the API shows the CID, not yet published; the CAR downloads already (built from the rows)
    expect((await api.get(`/proposals/${q.proposalId}/record`)).body).toMatchObject({
      recordCid: failed.recordCid,
      publishedAt: null,
    });
    expect((await api.get(`/votes/${q.casts[0]!.voteId}/receipt`)).body.reason).toBe('RECORD_NOT_READY');
    expect((await verifyRecord(await download(q.proposalId))).recordCid).toBe(failed.recordCid);
    expect(await publishDueRecords(t.app.svc, { node, attest: attest() })).toBe(0);
    clock.advance(10_000);
    expect(await publishDueRecords(t.app.svc, { node, attest: attest() })).toBe(1);
    expect(await recordRow(q.proposalId)).toMatchObject({
      recordCid: failed.recordCid,
      recordError: null,
    });
    expect((await recordRow(q.proposalId)).recordPublishedAt).not.toBeNull();
  });

  it('a long publish keeps its lease: another instance does not take the work over midway', async () => {
    const q = await votedProposal();
    const fixed = (await recordRow(q.proposalId)).recordCid;
    const node = storage().node;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let importing = false;
    const slow: RecordNode = {
      importCar: async (source, o) => {
        importing = true;
        await held;
        return node.importCar(source, o);
      },
      pin: (cid, o) => node.pin(cid, o),
    };
    const publishing = publishRecord(t.app.svc, {
      proposalId: q.proposalId,
      node: slow,
      attest: attest(),
      renewEveryMs: 20,
    });
    await expect.poll(() => importing).toBe(true);
    // past the lease as it was taken: only its renewal keeps it
    clock.advance(RECORD_LEASE_MS + 1_000);
    await expect
      .poll(async () => (await recordRow(q.proposalId)).recordClaimedUntil?.getTime())
      .toBe(clock.now().getTime() + RECORD_LEASE_MS);
    expect(await publishRecord(t.app.svc, { proposalId: q.proposalId, node, attest: attest() })).toBeNull();
    release();
    expect(await publishing).toBe(fixed);
    expect(await recordRow(q.proposalId)).toMatchObject({ recordClaimedUntil: null, recordAttempts: 0 });
  });

  it('a record that no longer builds to the CID fixed at the close is not published', async () => {
    const q = await votedProposal();
    // another record key than the closing step's (as after a change of SECRET_KEY)
    const other = recordAttestor(new Uint8Array(32).fill(7));
    await expect(
      publishRecord(t.app.svc, { proposalId: q.proposalId, node: storage().node, attest: other }),
    ).rejects.toThrow(/is not the one fixed at the close/);
    expect(await recordRow(q.proposalId)).toMatchObject({ recordPublishedAt: null, recordAttempts: 1 });
  });
});

describe('reading the rows', () => {
  it('pages through thousands of entries and ballots: each once, in the record’s order', async () => {
    const p = await votedProposal();
    const db = t.app.svc.db;
    // mixed-case addresses, which collations order differently from bytes, and ballots sharing one
    // created_at (one statement) so that the id decides inside it
    await db.execute(sql`
      insert into proposal_electorate (proposal_id, address, weight)
      select ${p.proposalId}::uuid, case when g % 2 = 0 then '0xAB' else '0xab' end || lpad(to_hex(g), 38, '0'), 1
      from generate_series(1, 2500) g`);
    await db.execute(sql`
      insert into votes (proposal_id, dao_id, voter_address, choice, weight, order_key)
      select ${p.proposalId}::uuid, dao_id, '0xcd' || lpad(to_hex(g), 38, '0'), 'For', 1, 0
      from proposals, generate_series(1, 2100) g where proposals.id = ${p.proposalId}::uuid`);
    const input = await recordInputOf(db, p.proposalId);
    const entries: string[] = [];
    for await (const e of input.electorate) entries.push(e.address.toLowerCase());
    expect(entries).toHaveLength(2500 + 5);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.every((a, i) => i === 0 || entries[i - 1]! < a)).toBe(true);
    const ballots: { id: string; at: number }[] = [];
    for await (const v of input.ballots) ballots.push({ id: v.id, at: v.createdAt.getTime() });
    expect(ballots).toHaveLength(2100 + 4);
    expect(new Set(ballots.map((b) => b.id)).size).toBe(ballots.length);
    expect(ballots.every((b, i) => i === 0 || ballots[i - 1]!.at <= b.at)).toBe(true);
    let replaced = 0;
    for await (const _ of input.replaced) replaced++;
    expect(replaced).toBe(2);
  });
});
