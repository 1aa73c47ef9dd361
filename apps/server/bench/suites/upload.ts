import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedNode } from '@plenum/core';
import { startTestApp } from '../../test/support/app';
import { memberUser } from '../../test/support/factories';
import { apiClient } from '../../test/support/http';
import type { BenchContext } from '../run';

const MB = 1024 * 1024;
const SIZE = 100 * MB;
const CHUNK = 256 * 1024;

/** 100 MB generated chunk by chunk (never held whole): a few random chunks, each copy stamped unique */
const BASE = Array.from({ length: 8 }, () => randomBytes(CHUNK));
function* body(seed: number) {
  for (let off = 0, i = 0; off < SIZE; off += CHUNK, i++) {
    const chunk = Buffer.from(BASE[i % BASE.length]!);
    chunk.writeUInt32LE(i, 16);
    chunk.writeUInt32LE(seed, 20);
    if (off === 0) chunk.write('%PDF-1.7\n', 0, 'latin1');
    yield chunk;
  }
}

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** POST /ipfs/upload (100 MB, streamed) vs the embedded node's raw add, and the server's memory growth. */
export default async function uploadBench(_ctx: BenchContext) {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-bench-node-'));
  const node = await createEmbeddedNode(dir);
  let start = performance.now();
  await node.add(
    (async function* () {
      yield* body(1);
    })(),
  );
  const rawMBs = SIZE / MB / ((performance.now() - start) / 1000);
  await node.stop();
  rmSync(dir, { recursive: true, force: true });

  const t = await startTestApp({
    env: { MAX_FILE_SIZE: String(SIZE + MB), ALLOWED_FILE_TYPES: 'application/pdf' },
  });
  try {
    const user = await memberUser(apiClient(t.url));
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const usedBefore = used();
    let peak = rssBefore;
    let peakUsed = usedBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
      peakUsed = Math.max(peakUsed, used());
    }, 20);
    start = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const boundary = '----plenumbench';
      const req = request(new URL('/ipfs/upload', t.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n`);
      const it = body(2);
      const pump = () => {
        for (let n = it.next(); !n.done; n = it.next())
          if (!req.write(n.value)) return void req.once('drain', pump);
        req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    const secs = (performance.now() - start) / 1000;
    clearInterval(sampler);
    if (status !== 201) throw new Error(`upload answered ${status}`);
    const uploadMBs = SIZE / MB / secs;
    console.log(`embedded node raw add (baseline): ${rawMBs.toFixed(1)} MB/s`);
    console.log(
      `POST /ipfs/upload 100 MB: ${uploadMBs.toFixed(1)} MB/s  ratio ${(uploadMBs / rawMBs).toFixed(2)} (target ≥ 0.50)`,
    );
    console.log(
      `memory growth while streaming, JS heap + buffers: ${((peakUsed - usedBefore) / MB).toFixed(1)} MB (target < 64 MB)`,
    );
    console.log(
      `RSS growth (client and server in one process, includes memory the allocator keeps): ${((peak - rssBefore) / MB).toFixed(1)} MB`,
    );
  } finally {
    await t.close();
  }
}
