import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedNode } from '@plenum/core';
import { memberUser } from '../../test/support/factories';
import { apiClient } from '../../test/support/http';
import { startServerProcess } from '../lib/server-process';
import type { BenchContext } from '../run';

const MB = 1024 * 1024;
const SIZE = 100 * MB;
const CHUNK = 256 * 1024;
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);

/** `size` bytes generated chunk by chunk (never held whole): a few random chunks, each copy stamped unique */
const BASE = Array.from({ length: 8 }, () => randomBytes(CHUNK));
function* body(seed: number, size = SIZE) {
  for (let off = 0, i = 0; off < size; off += CHUNK, i++) {
    const chunk = Buffer.from(BASE[i % BASE.length]!.subarray(0, Math.min(CHUNK, size - off)));
    chunk.writeUInt32LE(i, 16);
    chunk.writeUInt32LE(seed, 20);
    if (off === 0) chunk.write('%PDF-1.7\n', 0, 'latin1');
    yield chunk;
  }
}

/** POST /ipfs/upload as a streaming multipart body, with backpressure; resolves with status and body */
function upload(url: string, token: string, seed: number, size = SIZE) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const boundary = '----plenumbench';
    const req = request(new URL('/ipfs/upload', url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n`);
    const it = body(seed, size);
    const pump = () => {
      for (let n = it.next(); !n.done; n = it.next())
        if (!req.write(n.value)) return void req.once('drain', pump);
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

const FOLDER_FILES = 1000;
const FOLDER_FILE_SIZE = SIZE / FOLDER_FILES;

/**
 * POST /ipfs/upload?wrapWithDirectory=true with FOLDER_FILES files of FOLDER_FILE_SIZE bytes in ten
 * sub-folders (docs/storage.md, "Folders and several files"), streamed part by part with backpressure
 */
function uploadFolder(url: string, token: string, seed: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const boundary = '----plenumbenchfolder';
    const req = request(new URL('/ipfs/upload?wrapWithDirectory=true', url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    function* parts() {
      for (let f = 0; f < FOLDER_FILES; f++) {
        yield Buffer.from(
          `${f ? '\r\n' : ''}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d${f % 10}/f${f}.pdf"\r\n\r\n`,
        );
        yield* body(seed * 10_000 + f, FOLDER_FILE_SIZE);
      }
    }
    const it = parts();
    const pump = () => {
      for (let n = it.next(); !n.done; n = it.next())
        if (!req.write(n.value)) return void req.once('drain', pump);
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[], digits = 1) => xs.map((x) => x.toFixed(digits)).join(' / ');

/**
 * POST /ipfs/upload (100 MB, streamed) against the embedded node's own add of the same kind of bytes
 * (UnixFS addByteStream into an FsBlockstore, same DAG options), alternating in one run. The server
 * runs in its own process (the client would otherwise share its event loop and cores); its RSS is
 * sampled while it streams. Then one 100 MB folder of 1,000 files (wrapWithDirectory), RSS sampled too.
 */
export default async function uploadBench(ctx: BenchContext) {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-bench-node-'));
  const node = await createEmbeddedNode({ dir: dir, timeoutMs: 30_000, swarm: null });
  const server = await startServerProcess({
    MAX_FILE_SIZE: String(SIZE + MB),
    ALLOWED_FILE_TYPES: 'application/pdf',
  });
  const raw: number[] = [];
  const up: number[] = [];
  const ratio: number[] = [];
  const growth: number[] = [];
  const verifyMs: number[] = [];
  const rawCpu: number[] = [];
  const upCpu: number[] = [];
  let cids = { raw: '', upload: '' };
  try {
    const api = apiClient(server.url);
    const user = await memberUser(api);
    // warm-up: loads the lazy parts of the upload path before anything is measured
    const warm = await upload(server.url, user.token, 999, MB);
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${warm.body}`);

    for (let round = 1; round <= ROUNDS; round++) {
      const seed = round * 2;
      let cpu = process.cpuUsage();
      let start = performance.now();
      const rawCid = await node.add(
        (async function* () {
          yield* body(seed);
        })(),
      );
      raw.push(SIZE / MB / ((performance.now() - start) / 1000));
      cpu = process.cpuUsage(cpu);
      rawCpu.push((cpu.user + cpu.system) / 1000);

      const rssBefore = server.rss();
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, server.rss());
      }, 20);
      const serverCpu = server.cpuMs();
      start = performance.now();
      // the same bytes as the baseline's: the CIDs must come out equal (same DAG)
      const res = await upload(server.url, user.token, seed);
      const secs = (performance.now() - start) / 1000;
      clearInterval(sampler);
      upCpu.push(server.cpuMs() - serverCpu);
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body}`);
      const cid = (JSON.parse(res.body) as { cid: string }).cid;
      cids = { raw: rawCid.toV1().toString(), upload: cid };
      if (cids.raw !== cids.upload) throw new Error(`different DAGs: raw ${cids.raw}, upload ${cids.upload}`);
      up.push(SIZE / MB / secs);
      ratio.push(up.at(-1)! / raw.at(-1)!);
      growth.push((peak - rssBefore) / MB);

      // the background verification (ipfs:pin listener) must finish before the next round
      const doneAt = performance.now();
      while (true) {
        const pins = await api.get(`/pins?cid=${cid}&status=pinned`, { token: user.token });
        if (pins.body.results?.[0]?.info?.verified_at) break;
        if (performance.now() - doneAt > 60_000) throw new Error('the upload was not verified within 60 s');
        await new Promise((r) => setTimeout(r, 25));
      }
      verifyMs.push(performance.now() - doneAt);
    }
    // a 100 MB folder of 1,000 files: each file spooled and imported one at a time, never held
    const folderBefore = server.rss();
    let folderPeak = folderBefore;
    const folderSampler = setInterval(() => {
      folderPeak = Math.max(folderPeak, server.rss());
    }, 20);
    const folderStart = performance.now();
    const folder = await uploadFolder(server.url, user.token, 77);
    const folderSecs = (performance.now() - folderStart) / 1000;
    clearInterval(folderSampler);
    if (folder.status !== 201)
      throw new Error(`folder upload answered ${folder.status}: ${folder.body.slice(0, 300)}`);
    const folderFiles = (JSON.parse(folder.body) as { files: unknown[] }).files.length;
    if (folderFiles !== FOLDER_FILES) throw new Error(`the folder holds ${folderFiles} files`);
    const folderGrowth = (folderPeak - folderBefore) / MB;

    const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    ctx.record({
      name: 'POST /ipfs/upload 100 MB (median)',
      value: mid(up),
      unit: 'MB/s',
      baseline: { name: 'embedded node raw add (median)', value: mid(raw) },
      target: { op: '>=', value: 0.9, of: 'baseline' },
    });
    ctx.record({
      name: 'server RSS growth while streaming (max)',
      value: Math.max(...growth),
      unit: 'MB',
      target: { op: '<', value: 32 },
    });
    ctx.record({
      name: 'server RSS growth, 100 MB folder of 1,000 files',
      value: folderGrowth,
      unit: 'MB',
      target: { op: '<', value: 32 },
    });
    console.log(
      `folder upload (${FOLDER_FILES} files, 100 MB): ${(SIZE / MB / folderSecs).toFixed(1)} MB/s, server RSS growth ${folderGrowth.toFixed(1)} MB (target < 32 MB)`,
    );
    console.log(`rounds: ${ROUNDS}, 100 MB each, same bytes and CID in both (${cids.upload})`);
    console.log(`embedded node raw add (baseline): ${fmt(raw)} MB/s`);
    console.log(`POST /ipfs/upload 100 MB:          ${fmt(up)} MB/s`);
    console.log(`ratio per round: ${fmt(ratio, 2)}  median ${median(ratio).toFixed(2)} (target ≥ 0.50)`);
    console.log(
      `CPU time per 100 MB: raw add ${fmt(rawCpu, 0)} ms, server during upload ${fmt(upCpu, 0)} ms`,
    );
    console.log(`server RSS growth while streaming: ${fmt(growth)} MB (target < 64 MB)`);
    // the first 100 MB after start grows the heap and allocator pools; later ones reuse them
    console.log(
      `  max over rounds ${Math.max(...growth).toFixed(1)} MB, after the first ${Math.max(0, ...growth.slice(1)).toFixed(1)} MB`,
    );
    console.log(`upload answered → pin verified (background): ${fmt(verifyMs, 0)} ms`);
  } finally {
    await server.close();
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
