import { generateKeyPairSync } from 'node:crypto';
import { CarWriter } from '@ipld/car';
import { ManualClock, type StorageRuntime } from '@plenum/core';
import {
  type Block,
  ballotLeafBlock,
  buildProposalRecord,
  CID,
  decodeBlock,
  ed25519Attestor,
  inclusionProof,
  publishDueRecords,
  publishRecord,
  type RecordNode,
  RecordPublisher,
  recordAttestor,
  recordInputOf,
} from '@plenum/core/governance/record/index';
import { proposals } from '@plenum/db';
import { verifyRecord } from '@plenum/verify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, signedVote, tick, walletMembers } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * The proposal record (docs/governance.md, "The proposal record") built from a real proposal's stored rows
 * on both databases, after session and signed votes and vote changes: it verifies with packages/verify,
 * builds to the same CID twice, and a stored vote's leaf is its receipt. (The close hook that stores and
 * pins it is not built yet.)
 */
let t: TestApp;
let api: ApiClient;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));
const nowS = () => Math.floor(clock.now().getTime() / 1000);
const attest = ed25519Attestor(generateKeyPairSync('ed25519').privateKey);
const key = attest(new Uint8Array()).publicKey;
const storage = () => t.app.svc.storage as StorageRuntime;

beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

async function build(proposalId: string) {
  const blocks: Block[] = [];
  for await (const b of buildProposalRecord({ ...(await recordInputOf(t.app.svc.db, proposalId)), attest }))
    blocks.push(b);
  const { writer, out } = CarWriter.create([blocks.at(-1)!.cid]);
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    for await (const c of out) chunks.push(c);
  })();
  for (const b of blocks) await writer.put(b);
  await writer.close();
  await reading;
  return { root: blocks.at(-1)!.cid, car: new Uint8Array(Buffer.concat(chunks)) };
}

/** a closed proposal (PASSED) after session and signed votes and two vote changes */
async function closedProposal() {
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
  await expect(recordInputOf(t.app.svc.db, p.proposalId)).rejects.toMatchObject({ code: 'CONFLICT' });

  clock.advance(25 * 3_600_000);
  await tick(t);
  return { proposalId: p.proposalId, voteIds: casts.map((c) => (c.body as { voteId: string }).voteId) };
}

describe('the record of a closed proposal', () => {
  it('verifies, is the same twice, and proves a stored vote by its leaf', async () => {
    const p = await closedProposal();
    const first = await build(p.proposalId);
    const v = await verifyRecord(first.car, { key });
    expect(v.failures).toEqual([]);
    expect(v).toMatchObject({
      ok: true,
      status: 'PASSED',
      ballots: { counted: 4, replaced: 2, signed: 3, session: 3 },
    });
    expect((await build(p.proposalId)).root.toString()).toBe(first.root.toString());

    // w2's stored vote: its leaf is in the record, and the proof from its place proves it
    const stored = [];
    const leaves = [];
    for await (const row of (await recordInputOf(t.app.svc.db, p.proposalId)).ballots) {
      stored.push(row);
      leaves.push((await ballotLeafBlock(row)).cid);
    }
    const w2Vote = p.voteIds[4];
    const index = stored.findIndex((r) => r.id === w2Vote);
    expect(index).toBeGreaterThanOrEqual(0);
    const proof = (await inclusionProof(leaves, index)).map((s) => ({ side: s.side, cid: s.cid.toString() }));
    const receipt = { leaf: leaves[index]!.toString(), proof };
    expect((await verifyRecord(first.car, { key, receipt })).ok).toBe(true);
    expect(
      (await verifyRecord(first.car, { key, receipt: { ...receipt, leaf: leaves[0]!.toString() } })).failures,
    ).toEqual([{ check: 'receipt', message: `ballot ${leaves[0]} is not in this record` }]);
  });
});

/** the record's blocks read back from the node, from its root along every link, as a CAR */
async function carFromNode(root: CID) {
  const node = storage().node;
  const { writer, out } = CarWriter.create([root]);
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    for await (const c of out) chunks.push(c);
  })();
  const seen = new Set<string>();
  const todo = [root];
  const links = (v: unknown, into: CID[]) => {
    const cid = CID.asCID(v);
    if (cid) into.push(cid);
    else if (v && typeof v === 'object' && !(v instanceof Uint8Array))
      for (const x of Object.values(v)) links(x, into);
  };
  while (todo.length) {
    const cid = todo.pop()!;
    if (seen.has(cid.toString())) continue;
    seen.add(cid.toString());
    const bytes = await node.getBlock!(cid);
    await writer.put({ cid, bytes } as never);
    links(decodeBlock(bytes), todo);
  }
  await writer.close();
  await reading;
  return new Uint8Array(Buffer.concat(chunks));
}

const recordRow = async (proposalId: string) =>
  (await t.app.svc.db.select().from(proposals).where(eq(proposals.id, proposalId)))[0]!;

describe('publishing the record', () => {
  it('happens once under concurrency: stored, pinned, its CID on the proposal, and it verifies', async () => {
    const p = await closedProposal();
    const node = storage().node;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => publishRecord(t.app.svc, { proposalId: p.proposalId, node, attest })),
    );
    const published = outcomes.filter((o) => o !== null);
    expect(published).toHaveLength(1);
    expect(outcomes.filter((o) => o === null)).toHaveLength(7);
    const row = await recordRow(p.proposalId);
    expect(row).toMatchObject({
      recordCid: published[0],
      recordAttempts: 0,
      recordError: null,
      recordClaimedUntil: null,
    });
    const root = CID.parse(published[0]!);
    expect(await node.isPinned(root)).toBe(true);
    expect((await verifyRecord(await carFromNode(root), { key })).failures).toEqual([]);
    // the same as a build from the rows: the CID is the record's, whoever builds it
    expect((await build(p.proposalId)).root.toString()).toBe(published[0]);
    // nothing left to do
    expect(await publishRecord(t.app.svc, { proposalId: p.proposalId, node, attest })).toBeNull();
  });

  it('a failure is kept on the proposal and retried after its delay, by the pass', async () => {
    const p = await closedProposal();
    const node = storage().node;
    const down: RecordNode = {
      importCar: () => Promise.reject(new Error('the node is down')),
      pin: (cid, o) => node.pin(cid, o),
    };
    // earlier tests' proposals are published here too: the pass is global
    await publishDueRecords(t.app.svc, { node, attest });
    const q = await closedProposal();
    await expect(publishRecord(t.app.svc, { proposalId: q.proposalId, node: down, attest })).rejects.toThrow(
      'the node is down',
    );
    const failed = await recordRow(q.proposalId);
    expect(failed).toMatchObject({ recordCid: null, recordAttempts: 1, recordError: 'the node is down' });
    expect(failed.recordClaimedUntil!.getTime()).toBe(clock.now().getTime() + 10_000);
    expect(await publishDueRecords(t.app.svc, { node, attest })).toBe(0);
    clock.advance(10_000);
    expect(await publishDueRecords(t.app.svc, { node, attest })).toBe(1);
    expect((await recordRow(q.proposalId)).recordCid).toBe((await build(q.proposalId)).root.toString());
    expect((await recordRow(p.proposalId)).recordCid).not.toBeNull();
  });

  it('the publisher runs the pass and signs with the key derived from SECRET_KEY', async () => {
    const q = await closedProposal();
    const attestor = recordAttestor(t.app.svc.config.secretKey());
    const publisher = new RecordPublisher(t.app.svc, { node: storage().node, attest: attestor });
    expect(await publisher.tick()).toBeGreaterThanOrEqual(1);
    await publisher.stop();
    const recordCid = (await recordRow(q.proposalId)).recordCid!;
    const v = await verifyRecord(await carFromNode(CID.parse(recordCid)), {
      key: attestor(new Uint8Array()).publicKey,
    });
    expect(v.failures).toEqual([]);
  });
});

describe('reading the rows', () => {
  it('pages through thousands of entries and ballots: each once, in the record’s order', async () => {
    const p = await closedProposal();
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
