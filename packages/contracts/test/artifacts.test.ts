import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { artifacts, solcVersion } from '../src/artifacts.ts';

const run = promisify(execFile);
const PKG = resolve(import.meta.dirname, '..');
const NAMES = ['PlenumVotesToken', 'PlenumToken'] as const;

interface Artifact {
  contractName: string;
  abi: unknown[];
  bytecode: string;
  solcVersion: string;
  sourceHash: string;
}

const tmp = mkdtempSync(join(tmpdir(), 'plenum-compile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const read = (dir: string, name: string): Artifact =>
  JSON.parse(readFileSync(join(dir, 'artifacts', `${name}.json`), 'utf8'));

async function compile(out: string, contracts?: string): Promise<void> {
  const args = [join(PKG, 'scripts', 'compile.mjs'), '--out', out];
  if (contracts) args.push('--contracts', contracts);
  await run(process.execPath, args, { cwd: PKG });
}

describe('committed artifacts', () => {
  // Both compiles at once: the fresh one from contracts/, and one from a copy with a comment added.
  const fresh = join(tmp, 'fresh');
  const edited = join(tmp, 'edited');
  const compiled = (async () => {
    const editedSources = join(tmp, 'edited-contracts');
    cpSync(join(PKG, 'contracts'), editedSources, { recursive: true });
    appendFileSync(join(editedSources, 'PlenumVotesToken.sol'), '\n// edited\n');
    await Promise.all([compile(fresh), compile(edited, editedSources)]);
  })();

  it.each(NAMES)('%s equals a fresh compile (sourceHash, bytecode, abi, solc version)', async (name) => {
    await compiled;
    const committed = read(PKG, name);
    const now = read(fresh, name);
    expect(now.contractName).toBe(name);
    expect(committed.sourceHash).toBe(now.sourceHash);
    expect(committed.bytecode).toBe(now.bytecode);
    expect(committed.abi).toEqual(now.abi);
    expect(committed.solcVersion).toBe(now.solcVersion);
    expect(committed.solcVersion).toBe(solcVersion);
  });

  it('src/artifacts.generated.ts carries the committed JSON', () => {
    for (const name of NAMES) {
      const committed = read(PKG, name);
      expect(artifacts[name].abi).toEqual(committed.abi);
      expect(artifacts[name].bytecode).toBe(committed.bytecode);
      expect(artifacts[name].sourceHash).toBe(committed.sourceHash);
    }
  });

  it('an edited .sol gives another sourceHash and bytecode, so an edit without `pnpm compile` fails', async () => {
    await compiled;
    const before = read(fresh, 'PlenumVotesToken');
    const after = read(edited, 'PlenumVotesToken');
    expect(after.sourceHash).not.toBe(before.sourceHash);
    expect(after.bytecode).not.toBe(before.bytecode);
    // The other contract does not import the edited file: unchanged.
    expect(read(edited, 'PlenumToken').sourceHash).toBe(read(fresh, 'PlenumToken').sourceHash);
  });
});
