// `npm run ipfs:export -- [--out <file> | --out -] [--force]`: every pinned CID of the embedded IPFS node
// (DATA_DIR/ipfs) with all blocks of its DAG as one CAR file, for `ipfs dag import` into Kubo or as a
// backup (docs/operations.md, "Moving off the embedded defaults"). Exit codes: 0 written, 1 failed,
// 2 refused (usage, no node or nothing pinned, server running).
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { hasEmbeddedNode, NothingPinnedError, recordedPinnedCids, writePinsCar } from '@plenum/core';
import { createDb, embeddedDataInUse, hasEmbeddedDatabase } from '@plenum/db';
import { loadEnv } from '../env';
import { exportCli } from './shared/export-cli';

const cli = exportCli('ipfs:export', 'usage: npm run ipfs:export -- [--out <file.car> | --out -] [--force]');
const { note, refuse } = cli;

/**
 * A Plenum server on this machine's API port that runs the embedded node. The node's stores take no
 * lock and keep no file open, so with the database on DATABASE_URL this is the only sign of it.
 */
async function embeddedServerOnPort(port: number): Promise<string | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
    const body = (await res.json()) as { version?: unknown; ipfs?: { provider?: unknown } };
    if (body.ipfs?.provider === 'embedded')
      return `a Plenum server with the embedded IPFS node answers on port ${port}: stop it first (or pass --force)`;
  } catch {
    // nothing there, or not Plenum
  }
  return undefined;
}

/** the CIDs the pin records call pinned, from the database the server used; undefined when unreadable */
async function recordedPins(databaseUrl: string | undefined, pgDir: string): Promise<string[] | undefined> {
  if (!databaseUrl && !hasEmbeddedDatabase(pgDir)) return undefined;
  try {
    const handle = await createDb({ databaseUrl, dataDir: pgDir, maxConnections: 1 });
    try {
      return await recordedPinnedCids({ db: handle.db });
    } finally {
      await handle.close();
    }
  } catch (err) {
    note(`warning: the pin records could not be read (${(err as Error).message}); exporting the node's pins`);
    return undefined;
  }
}

try {
  const env = loadEnv();
  const ipfsDir = path.join(env.dataDir, 'ipfs');
  if (!hasEmbeddedNode(ipfsDir))
    refuse(`no embedded IPFS node in ${ipfsDir} (DATA_DIR=${env.dataDir}): nothing to export`);
  if (!cli.options.force) {
    const busy = embeddedDataInUse(env.dataDir) ?? (await embeddedServerOnPort(env.PORT));
    if (busy) refuse(busy);
  }
  const recorded = await recordedPins(env.DATABASE_URL, path.join(env.dataDir, 'pg'));

  const out = cli.out(`plenum-pins-${new Date().toISOString().slice(0, 10)}.car`);
  const toStdout = out === '-';
  // a failed or cut export never leaves a file that looks complete
  const partial = `${out}.partial`;
  const sink = toStdout ? process.stdout : createWriteStream(partial);
  let result: Awaited<ReturnType<typeof writePinsCar>>;
  try {
    result = await writePinsCar({ dir: ipfsDir, out: sink, recorded });
    if (toStdout) {
      // process.exit would drop what a pipe has not taken yet
      await new Promise<void>((resolve, reject) => sink.write('', (err) => (err ? reject(err) : resolve())));
    } else {
      sink.end();
      await finished(sink);
      renameSync(partial, out);
    }
  } catch (err) {
    if (!toStdout) {
      sink.destroy();
      rmSync(partial, { force: true });
    }
    if (err instanceof NothingPinnedError) refuse(`${err.message}: nothing to export`);
    throw err;
  }

  const mib = (result.bytes / 1_048_576).toFixed(1);
  note(
    `wrote ${toStdout ? 'standard output' : out} (${result.roots.length} pinned CIDs as roots, ${result.blocks} blocks, ${mib} MiB) from ${ipfsDir}`,
  );
  if (result.recordedOnly.length)
    note(`${result.recordedOnly.length} of them recorded as pinned but not pinned on the node: included`);
  for (const m of result.missing)
    note(`warning: ${m.cid} is recorded as pinned but not whole on the node, not exported: ${m.reason}`);
  if (!toStdout) note(`import it into Kubo: ipfs dag import ${cli.shown(out)}`);
  process.exit(0);
} catch (err) {
  cli.fail(err);
}
