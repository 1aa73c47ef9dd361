#!/usr/bin/env node
// Compiles contracts/*.sol with solc-js (the `solc` dev dependency) and writes the committed artifacts:
//   artifacts/<Contract>.json     { contractName, abi, bytecode, solcVersion, sourceHash }
//   src/artifacts.generated.ts    the same ABIs `as const` (for viem's type inference) and bytecodes
// Tests never compile; test/artifacts.test.ts recompiles into a temporary directory and checks that the
// committed artifacts equal a fresh compile, so an edited .sol without `pnpm compile` fails the tests.
//
// Usage: node scripts/compile.mjs [--out <dir>] [--contracts <dir>]
//   --out        write <dir>/artifacts/*.json and <dir>/src/artifacts.generated.ts instead of the package's
//   --contracts  read the .sol files from <dir> instead of contracts/ (the test's edited copy)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const solc = require('solc');

const PKG = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CONTRACTS = ['PlenumVotesToken', 'PlenumToken'];
// Cancun: the newest fork every chain we target has shipped (PUSH0, MCOPY, transient storage); anvil runs
// a later fork by default, which is a superset.
const EVM_VERSION = 'cancun';

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? resolve(process.argv[i + 1] ?? '') : undefined;
}
const OUT = option('--out') ?? PKG;
const CONTRACTS_DIR = option('--contracts') ?? join(PKG, 'contracts');

/** Resolves an import such as `@openzeppelin/contracts/token/ERC20/ERC20.sol` to a file on disk. */
function resolveImport(path) {
  if (path.startsWith('contracts/')) return join(CONTRACTS_DIR, path.slice('contracts/'.length));
  if (path.startsWith('@openzeppelin/contracts/')) {
    const ozRoot = dirname(require.resolve('@openzeppelin/contracts/package.json'));
    return join(ozRoot, path.slice('@openzeppelin/contracts/'.length));
  }
  return null;
}

/** Every file solc asked for, by source unit name, so the source hash covers exactly what was compiled. */
const loaded = new Map();

function findImports(path) {
  const file = resolveImport(path);
  if (!file || !existsSync(file)) return { error: `File not found: ${path}` };
  const contents = readFileSync(file, 'utf8');
  loaded.set(path, contents);
  return { contents };
}

const sources = {};
for (const name of readdirSync(CONTRACTS_DIR)
  .filter((f) => f.endsWith('.sol'))
  .sort()) {
  const unit = `contracts/${name}`;
  const content = readFileSync(join(CONTRACTS_DIR, name), 'utf8');
  sources[unit] = { content };
  loaded.set(unit, content);
}

const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: EVM_VERSION,
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'metadata'] } },
  },
};

const started = performance.now();
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const elapsed = Math.round(performance.now() - started);

const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
// Warnings in our own sources are shown; those inside OpenZeppelin are only counted.
const warnings = (output.errors ?? []).filter((e) => e.severity !== 'error');
const ours = warnings.filter((e) => e.sourceLocation?.file?.startsWith('contracts/'));
for (const e of ours) console.warn(e.formattedMessage ?? e.message);
if (warnings.length > ours.length) {
  console.warn(
    `compile.mjs: ${warnings.length - ours.length} warning(s) in @openzeppelin/contracts not shown`,
  );
}
if (errors.length > 0 || !output.contracts) {
  for (const e of errors) console.error(e.formattedMessage ?? e.message);
  console.error(`compile.mjs: solc ${solc.version()} failed with ${errors.length} error(s)`);
  process.exit(1);
}

const solcVersion = solc.version();
const artifacts = [];
for (const contractName of CONTRACTS) {
  const unit = `contracts/${contractName}.sol`;
  const compiled = output.contracts[unit]?.[contractName];
  if (!compiled) {
    console.error(`compile.mjs: ${contractName} not found in ${unit}`);
    process.exit(1);
  }
  const bytecode = `0x${compiled.evm.bytecode.object}`;
  if (bytecode.length <= 2) {
    console.error(`compile.mjs: ${contractName} has empty bytecode (abstract?)`);
    process.exit(1);
  }
  // The sources this contract was built from, as solc records them in its metadata: our .sol file and
  // the OpenZeppelin files it imports (directly or not). sha256 over "<unit>\0<content>\0", sorted by unit.
  const units = Object.keys(JSON.parse(compiled.metadata).sources).sort();
  const hash = createHash('sha256');
  for (const u of units) {
    const content = loaded.get(u);
    if (content === undefined) {
      console.error(`compile.mjs: source ${u} of ${contractName} was not loaded`);
      process.exit(1);
    }
    hash.update(u).update('\0').update(content).update('\0');
  }
  artifacts.push({
    contractName,
    abi: compiled.abi,
    bytecode,
    solcVersion,
    sourceHash: `0x${hash.digest('hex')}`,
  });
}

mkdirSync(join(OUT, 'artifacts'), { recursive: true });
mkdirSync(join(OUT, 'src'), { recursive: true });
for (const a of artifacts) {
  writeFileSync(join(OUT, 'artifacts', `${a.contractName}.json`), `${JSON.stringify(a, null, 2)}\n`);
}

const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);
let ts = `// Generated by scripts/compile.mjs from artifacts/*.json — do not edit; run \`pnpm compile\`.\n`;
ts += `// solc ${solcVersion}, optimizer 200 runs, evmVersion ${EVM_VERSION}.\n\n`;
for (const a of artifacts) {
  const base = lowerFirst(a.contractName);
  ts += `export const ${base}Abi = ${JSON.stringify(a.abi)} as const;\n\n`;
  ts += `export const ${base}Bytecode: \`0x\${string}\` = '${a.bytecode}';\n\n`;
  ts += `export const ${base}SourceHash = '${a.sourceHash}';\n\n`;
}
ts += `export const solcVersion = '${solcVersion}';\n`;
const tsFile = join(OUT, 'src', 'artifacts.generated.ts');
writeFileSync(tsFile, ts);

// Lay the generated file out the way the repository's formatter (biome, at the root) wants it, so that
// `biome check` passes without an ignore entry. Skipped with a warning when biome is not installed, and
// for --out (biome refuses paths outside the repository; the test compares the JSON, not this layout).
const repoRoot = resolve(PKG, '..', '..');
const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
if (OUT !== PKG) {
  // nothing to format
} else if (existsSync(biome)) {
  execFileSync(
    biome,
    ['format', '--write', tsFile, ...artifacts.map((a) => join(OUT, 'artifacts', `${a.contractName}.json`))],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
} else {
  console.warn('compile.mjs: biome not found; src/artifacts.generated.ts is left unformatted');
}

for (const a of artifacts) {
  console.log(
    `${a.contractName}: ${(a.bytecode.length - 2) / 2} bytes, sourceHash ${a.sourceHash.slice(0, 18)}…`,
  );
}
console.log(`solc ${solcVersion}: compiled in ${elapsed} ms → ${relative(process.cwd(), OUT) || '.'}`);
