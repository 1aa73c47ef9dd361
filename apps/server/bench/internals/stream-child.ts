// One streamed add for bench/internals/run.ts, in a fresh process (so the RSS it reports is this add's
// alone): 100 MB arriving as fresh 64 KB reads, as a socket delivers them, into Helia's UnixFS importer
// on a filesystem blockstore. argv: <dir> <pool: 0|1> <reclaim: 0|1>. Prints one JSON line.
import path from 'node:path';
import { createReclaimer } from '@plenum/core/shared/reclaim';
import { pooledLeaves } from '@plenum/core/storage/leaf-pool';
import { importFromCore } from './from-core';

const { createHeliaLight } = await importFromCore('helia');
const { unixfs } = await importFromCore('@helia/unixfs');
const { FsBlockstore } = await importFromCore('blockstore-fs');
const { FsDatastore } = await importFromCore('datastore-fs');

const [dir, poolArg, reclaimArg] = process.argv.slice(2);
const usePool = poolArg === '1';
const useReclaim = reclaimArg === '1';
const SIZE = 100 * 1024 * 1024;
const READ = 64 * 1024;

const helia = createHeliaLight({
  blockstore: new FsBlockstore(path.join(dir!, 'blocks')),
  datastore: new FsDatastore(path.join(dir!, 'datastore')),
  blockBrokers: [],
});
await helia.start();
const fs = unixfs(helia);

const base = Buffer.alloc(READ);
for (let i = 0; i < READ; i += 4) base.writeUInt32LE((i * 2654435761) >>> 0, i);
const reclaim = createReclaimer();
async function* reads() {
  for (let off = 0, i = 0; off < SIZE; off += READ, i++) {
    const chunk = Buffer.allocUnsafe(READ); // a socket read: a fresh buffer outside the JavaScript heap
    base.copy(chunk);
    chunk.writeUInt32LE(i, 0);
    if (useReclaim) reclaim(chunk.length);
    yield chunk;
    if (i % 16 === 0) await new Promise((r) => setImmediate(r)); // the socket's pace: other turns run
  }
}

const rssStart = process.memoryUsage.rss();
let rssPeak = rssStart;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
}, 5);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const cid = await fs.addByteStream(reads(), usePool ? pooledLeaves() : {});
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
await helia.stop();
console.log(
  JSON.stringify({
    cid: cid.toString(),
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssGrowthMb: (rssPeak - rssStart) / 1024 / 1024,
  }),
);
process.exit(0);
