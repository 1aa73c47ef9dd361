import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CarReader, CarWriter } from '@ipld/car';
import { ManualClock, type StorageRuntime } from '@plenum/core';
import {
  CID,
  decodeBlock,
  encodeBlock,
  publishRecord,
  recordAttestor,
} from '@plenum/core/governance/record/index';
import { proposals } from '@plenum/db';
import { verifyRecord } from '@plenum/verify';
import { eq } from 'drizzle-orm';
import { create } from 'kubo-rpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, createProposal, tick } from './support/governance';
import { type ApiClient, apiClient } from './support/http';
import { type KuboStandIn, startKuboStandIn } from './support/kubo-rpc-stand-in';

/**
 * The proposal record on the Kubo provider (docs/governance.md, "Publishing"), against the Kubo RPC
 * stand-in: a closed proposal's record goes in through `dag/import` and is pinned with `pin/add`; a
 * receipt's proof is read back through `block/get`; the blocks the node holds, walked from the record's
 * CID, verify with packages/verify. With the node down the record stays unpublished, its failure kept,
 * and it is published once the node is back and its retry is due.
 */
let kubo: KuboStandIn;
let t: TestApp;
let api: ApiClient;
let dir: string;
const clock = new ManualClock(Date.parse('2030-06-01T00:00:00Z'));

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'plenum-record-kubo-'));
  kubo = await startKuboStandIn(dir);
  t = await startTestApp({ clock, env: { IPFS_NODE_URL: kubo.url, IPFS_TIMEOUT: '2000' } });
  api = apiClient(t.url);
});
afterAll(async () => {
  await t?.close();
  await kubo?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** a proposal with three session ballots (one changed), closed by the status scheduler */
async function closedProposal() {
  const owner = await memberUser(api);
  const dao = await createDao(api, owner, {
    threshold: 50,
    minVotingPeriod: 0,
    tokenWeighted: false,
    allowVoteChange: true,
  });
  const voters = [await memberUser(api), await memberUser(api)];
  for (const m of voters) await addMember(api, owner, dao.daoId, m.wallet.address);
  const p = await createProposal(api, owner, dao.daoId);
  const vote = async (m: (typeof voters)[number], choice: string) => {
    const res = await api.post(
      '/votes',
      { daoId: dao.daoId, proposalId: p.proposalId, voterAddress: m.wallet.address, choice },
      { token: m.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { voteId: string; receipt: string };
  };
  const votes = [await vote(voters[0]!, 'Against'), await vote(voters[1]!, 'For')];
  clock.advance(2_000);
  votes.push(await vote(voters[0]!, 'For'));
  clock.advance(25 * 3_600_000);
  await tick(t);
  return { proposalId: p.proposalId, votes };
}

const recordRow = async (proposalId: string) =>
  (await t.app.svc.db.select().from(proposals).where(eq(proposals.id, proposalId)))[0]!;

/** waits for the condition, not for a time: the publisher runs on its own (nudged by the close) */
async function until<T>(read: () => Promise<T | null | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cidsOf = async (car: Uint8Array) => {
  const list: string[] = [];
  for await (const b of (await CarReader.fromBytes(car)).blocks()) list.push(b.cid.toString());
  return list;
};

/** the blocks the stand-in holds under `root`, walked along every dag-cbor link, as a CAR with that root */
async function carFromStandIn(root: CID) {
  const { writer, out } = CarWriter.create([root]);
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    for await (const c of out) chunks.push(c);
  })();
  const links = (v: unknown, into: CID[]) => {
    const cid = CID.asCID(v);
    if (cid) into.push(cid);
    else if (v && typeof v === 'object' && !(v instanceof Uint8Array))
      for (const x of Object.values(v)) links(x, into);
  };
  const seen = new Set<string>();
  const todo = [root];
  while (todo.length) {
    const cid = todo.pop()!;
    if (seen.has(cid.toString())) continue;
    seen.add(cid.toString());
    const bytes = await kubo.node.getBlock!(cid);
    await writer.put({ cid, bytes } as never);
    links(decodeBlock(bytes), todo);
  }
  await writer.close();
  await reading;
  return { car: new Uint8Array(Buffer.concat(chunks)), blocks: seen.size };
}

describe('the proposal record on a Kubo node', () => {
  it('is stored through dag/import and pinned; receipts read their proofs through block/get; it verifies', async () => {
    expect((await api.get('/health')).body.ipfs).toEqual({ provider: 'kubo', ok: true });
    const p = await closedProposal();
    const published = await until(async () => {
      const r = await api.get(`/proposals/${p.proposalId}/record`);
      return r.status === 200 && r.body.publishedAt ? r.body : null;
    }, 'the record to be published');
    expect(published).toMatchObject({ proposalId: p.proposalId, status: 'PASSED' });
    const root = CID.parse(published.recordCid);
    expect(kubo.calls).toContain('dag/import');
    expect(await kubo.node.isPinned(root)).toBe(true);

    // the counted vote's receipt: its proof read from the node through block/get
    const counted = p.votes[2]!;
    const before = kubo.calls.filter((c) => c === 'block/get').length;
    const receipt = await api.get(`/votes/${counted.voteId}/receipt`);
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(200);
    expect(receipt.body).toMatchObject({
      voteId: counted.voteId,
      proposalId: p.proposalId,
      recordCid: published.recordCid,
      tree: 'ballots',
      leaf: counted.receipt,
    });
    expect(kubo.calls.filter((c) => c === 'block/get').length).toBeGreaterThan(before);
    // the replaced one is proven in the replaced tree
    const replaced = await api.get(`/votes/${p.votes[0]!.voteId}/receipt`);
    expect(replaced.body).toMatchObject({ tree: 'replaced', leaf: p.votes[0]!.receipt, index: 0, proof: [] });

    // what Kubo holds is the whole record, and it verifies with the instance's published key
    const { car, blocks } = await carFromStandIn(root);
    const key = new Uint8Array(Buffer.from(published.publicKey, 'hex'));
    const verdict = await verifyRecord(car, {
      key,
      expectedRoot: published.recordCid,
      receipt: { leaf: receipt.body.leaf, proof: receipt.body.proof },
    });
    expect(verdict.failures).toEqual([]);
    expect(verdict).toMatchObject({ ok: true, blocks, ballots: { counted: 2, replaced: 1, session: 3 } });
    // and the API serves the same blocks under the same root
    const served = await CarReader.fromBytes(
      new Uint8Array(await (await fetch(`${t.url}${new URL(published.car).pathname}`)).arrayBuffer()),
    );
    expect((await served.getRoots()).map(String)).toEqual([published.recordCid]);
    const servedCids = [];
    for await (const b of served.blocks()) servedCids.push(b.cid.toString());
    expect(servedCids.sort()).toEqual((await cidsOf(car)).sort());
  });

  it('stays unpublished with its error kept while the node is down, and is published when it is back', async () => {
    // earlier records are done: the retry below is this proposal's
    await t.app.recordPublisher.tick();
    await kubo.down();
    try {
      const q = await closedProposal();
      // the close does not wait for the node: the CID is fixed, the record not yet stored
      const fixed = await api.get(`/proposals/${q.proposalId}/record`);
      expect(fixed.status).toBe(200);
      expect(fixed.body.recordCid).toMatch(/^bafy/);
      const failed = await until(async () => {
        const r = await recordRow(q.proposalId);
        return r.recordError ? r : null;
      }, 'the failed attempt');
      expect(failed).toMatchObject({
        recordPublishedAt: null,
        recordAttempts: 1,
        recordCid: fixed.body.recordCid,
      });
      // the node's own failure, kept for the operator
      expect(failed.recordError).toMatch(/fetch failed|ECONNREFUSED|connect/i);
      expect(failed.recordClaimedUntil!.getTime()).toBe(clock.now().getTime() + 10_000);
      expect((await api.get(`/proposals/${q.proposalId}/record`)).body.publishedAt).toBeNull();
      const notYet = await api.get(`/votes/${q.votes[1]!.voteId}/receipt`);
      expect(notYet.status).toBe(409);
      expect(notYet.body).toMatchObject({ code: 'CONFLICT', reason: 'RECORD_NOT_READY' });

      // back, but the retry is not due: a pass leaves it
      await kubo.up();
      expect(await t.app.recordPublisher.tick()).toBe(0);
      expect((await recordRow(q.proposalId)).recordPublishedAt).toBeNull();
      clock.advance(10_000);
      await t.app.recordPublisher.tick();
      const done = await until(async () => {
        const r = await recordRow(q.proposalId);
        return r.recordPublishedAt ? r : null;
      }, 'the retried record');
      expect(done).toMatchObject({ recordCid: fixed.body.recordCid, recordError: null });
      expect(await kubo.node.isPinned(CID.parse(fixed.body.recordCid))).toBe(true);
      const { car } = await carFromStandIn(CID.parse(fixed.body.recordCid));
      expect(
        (await verifyRecord(car, { key: new Uint8Array(Buffer.from(fixed.body.publicKey, 'hex')) })).failures,
      ).toEqual([]);
      expect((await api.get(`/votes/${q.votes[1]!.voteId}/receipt`)).status).toBe(200);
      // published, but the node is down: the proof cannot be read, a clear 503 (never a 500)
      await kubo.down();
      const unreadable = await api.get(`/votes/${q.votes[1]!.voteId}/receipt`);
      expect(unreadable.status, JSON.stringify(unreadable.body)).toBe(503);
      expect(unreadable.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'STORAGE_UNAVAILABLE' });
    } finally {
      await kubo.up();
    }
  });
  it('eight publishers at once import and pin it once, on PostgreSQL and PGlite alike (the lease)', async () => {
    // from here the test drives publishing itself: the server's publisher would take the record first
    await t.app.recordPublisher.stop();
    const p = await closedProposal();
    const node = (t.app.svc.storage as StorageRuntime).node;
    const attest = recordAttestor(t.app.svc.config.secretKey());
    const count = (cmd: string) => kubo.calls.filter((c) => c === cmd).length;
    const [imports, pins] = [count('dag/import'), count('pin/add')];
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => publishRecord(t.app.svc, { proposalId: p.proposalId, node, attest })),
    );
    const row = await recordRow(p.proposalId);
    expect(outcomes.filter((o) => o !== null)).toEqual([row.recordCid]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(7);
    expect([count('dag/import') - imports, count('pin/add') - pins]).toEqual([1, 1]);
    expect(row).toMatchObject({ recordAttempts: 0, recordError: null });
    expect(await kubo.node.isPinned(CID.parse(row.recordCid!))).toBe(true);
  });
});

describe('the stand-in answers dag/import as Kubo does', () => {
  const once = (bytes: Uint8Array) =>
    (async function* () {
      yield bytes;
    })();
  const car = async (blocks: { cid: CID; bytes: Uint8Array }[], roots: CID[]) => {
    const { writer, out } = CarWriter.create(roots);
    const chunks: Uint8Array[] = [];
    const reading = (async () => {
      for await (const c of out) chunks.push(c);
    })();
    for (const b of blocks) await writer.put(b as never);
    await writer.close();
    await reading;
    return new Uint8Array(Buffer.concat(chunks));
  };

  it('one Root line per header root when it pins roots, none without; a block not matching its CID or a CAR without a root is refused', async () => {
    const ipfs = create({ url: `${kubo.url}/api/v0` });
    const leaf = await encodeBlock({ n: Math.random() });
    const root = await encodeBlock({ leaf: leaf.cid });
    const bytes = await car([leaf, root], [root.cid]);
    const pinned = [];
    for await (const r of ipfs.dag.import([once(bytes)])) pinned.push(r);
    expect(pinned.map((r) => [r.root.cid.toString(), r.root.pinErrorMsg])).toEqual([
      [root.cid.toString(), ''],
    ]);
    expect(await kubo.node.isPinned(root.cid)).toBe(true);

    const other = await encodeBlock({ n: Math.random() });
    const unpinned = [];
    for await (const r of ipfs.dag.import([once(await car([other], [other.cid]))], { pinRoots: false }))
      unpinned.push(r);
    expect(unpinned).toEqual([]);
    expect(await kubo.node.isPinned(other.cid)).toBe(false);
    expect(new Uint8Array(await kubo.node.getBlock!(other.cid))).toEqual(other.bytes);

    const forged = await encodeBlock({ n: Math.random() });
    const bad = await car(
      [{ cid: forged.cid, bytes: (await encodeBlock({ n: 'other' })).bytes }],
      [forged.cid],
    );
    const refused = (async () => {
      for await (const _ of ipfs.dag.import([once(bad)])) {
        // no result expected
      }
    })();
    await expect(refused).rejects.toThrow(/does not match its hash/);
    await expect(kubo.node.getBlock!(forged.cid)).rejects.toThrow();

    // as go-car's reader under Kubo: a CAR whose header names no root is refused
    const rootless = await encodeBlock({ n: Math.random() });
    const noRoot = (async () => {
      for await (const _ of ipfs.dag.import([once(await car([rootless], []))], { pinRoots: false })) {
        // no result expected
      }
    })();
    await expect(noRoot).rejects.toThrow(/empty car, no roots/);
  });
});
