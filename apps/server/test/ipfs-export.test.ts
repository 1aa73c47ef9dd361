import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, type TestApp } from './support/app';
import { catFile, readCar } from './support/car';
import { CLI_TIMEOUT_MS, runCli, startOnDataDir } from './support/embedded';
import { memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { PNG_1x1, uploadBytes } from './support/storage';

/**
 * `npm run ipfs:export` (docs/operations.md, "Moving off the embedded defaults"): the embedded node's
 * pinned content as one CAR for Kubo's `ipfs dag import`. The CAR is read back by test/support/car.ts,
 * a reader written from the specifications, not by the library that wrote it.
 */

describe('ipfs:export refuses', () => {
  it(
    'a data dir without the embedded node: exit code 2, one line, nothing created',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'plenum-car-empty-'));
      try {
        const r = await runCli('ipfs-export', ['--out', path.join(dir, 'pins.car')], { DATA_DIR: dir });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.trim().split('\n')).toEqual([
          `ipfs:export: no embedded IPFS node in ${path.join(dir, 'ipfs')} (DATA_DIR=${dir}): nothing to export`,
        ]);
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});

/** 2.5 MiB of text: three 1 MiB leaves under a dag-pb root */
const bigText = () => {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 2.5 * 1_048_576; i++) {
    const line = `line ${i} of the annual report\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(''));
};

async function upload(api: ApiClient, token: string, bytes: Buffer, name: string, type: string) {
  const res = await uploadBytes(api, token, bytes, name, type);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.cid as string;
}

describe('ipfs:export', () => {
  it(
    'writes every pinned CID as a root with all blocks of its DAG, once each, and the files read back',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-car-'));
      const carFile = path.join(dataDir, 'pins.car');
      // PGlite on disk in DATA_DIR/pg (pglite project) or a fresh database (postgres project)
      const db = await freshDatabase();
      const env: Record<string, string> = db.url ? { DATABASE_URL: db.url } : {};
      let t: TestApp | undefined = await startOnDataDir(dataDir, env);
      try {
        const api = apiClient(t.url);
        const alice = await memberUser(api);
        const bob = await memberUser(api);
        const files = new Map<string, Buffer>();
        const add = async (token: string, bytes: Buffer, name: string, type: string) => {
          const cid = await upload(api, token, bytes, name, type);
          files.set(cid, bytes);
          return cid;
        };
        const minutes = await add(
          alice.token,
          Buffer.from('minutes of the first meeting\n'),
          'minutes.txt',
          'text/plain',
        );
        await add(bob.token, PNG_1x1, 'dot.png', 'image/png');
        const report = await add(alice.token, bigText(), 'report.txt', 'text/plain');
        // a second owner of the same CID: still one root
        expect((await api.post(`/ipfs/pin/${minutes}`, undefined, { token: bob.token })).status).toBe(201);
        // uploaded, then unpinned: its blocks stay on disk but it is no root and not in the CAR
        const dropped = await upload(
          api,
          bob.token,
          Buffer.from('a draft nobody keeps\n'),
          'draft.txt',
          'text/plain',
        );
        const unpinned = await api.delete(`/ipfs/unpin/${dropped}`, { token: bob.token });
        expect(unpinned.body).toMatchObject({ unpinnedFromNode: true });

        // refused while the server runs: PGlite's open files, or (database on PostgreSQL) the API port
        const busy = await runCli('ipfs-export', ['--out', carFile], {
          ...env,
          DATA_DIR: dataDir,
          PORT: new URL(t.url).port,
        });
        expect(busy.code, busy.stderr).toBe(2);
        expect(busy.stderr.trim().split('\n')).toHaveLength(1);
        expect(busy.stderr).toContain(
          db.url
            ? `a Plenum server with the embedded IPFS node answers on port ${new URL(t.url).port}`
            : `process ${process.pid} `,
        );
        expect(existsSync(carFile)).toBe(false);

        await t.close();
        t = undefined;
        const r = await runCli('ipfs-export', ['--out', carFile], { ...env, DATA_DIR: dataDir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain(`wrote ${carFile} (3 pinned CIDs as roots`);
        expect(r.stderr).not.toContain('warning');
        expect(existsSync(`${carFile}.partial`)).toBe(false);

        const bytes = readFileSync(carFile);
        const car = readCar(bytes);
        expect(car.version).toBe(1);
        expect(car.roots).toEqual([...files.keys()].sort());
        // each block once; the report's root and its three leaves are all there
        expect(car.order).toHaveLength(car.blocks.size);
        expect(car.blocks.size).toBe(2 + 1 + 3);
        for (const [cid, content] of files) expect(catFile(car, cid).equals(content), cid).toBe(true);
        expect(car.blocks.get(report)?.codec).toBe(0x70);
        expect(car.blocks.has(dropped)).toBe(false);

        // the same CAR on standard output
        const piped = await runCli('ipfs-export', ['--out', '-'], { ...env, DATA_DIR: dataDir });
        expect(piped.code, piped.stderr).toBe(0);
        expect(piped.stdout.equals(bytes)).toBe(true);
      } finally {
        await t?.close();
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    4 * CLI_TIMEOUT_MS,
  );
});
