// `pnpm run build`: compiles the API server and its command-line tools into dist/ as plain JavaScript
// with source maps, so production runs `node --enable-source-maps dist/main.js` with no TypeScript
// loader (docs/operations.md, "Production").
//
// The workspace packages (@plenum/*) ship TypeScript sources, so they are bundled in. Every other
// package stays an import resolved at run time from this package's node_modules: native addons, WASM
// and the packages that read their own files keep working, and a dependency the bundle needs but this
// package does not declare fails the build here, not the server in production.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = import.meta.dirname;
const outdir = path.join(root, 'dist');

/** @type {Set<string>} */
const unresolved = new Set();

/** @type {import('esbuild').Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@plenum/') || args.path.startsWith('node:')) return undefined;
      try {
        import.meta.resolve(args.path);
      } catch {
        unresolved.add(args.path);
      }
      return { path: args.path, external: true };
    });
  },
};

// the server, and each command-line tool of src/cli as dist/<name>.js
const entryPoints = { main: 'src/main.ts' };
for (const file of readdirSync(path.join(root, 'src/cli'))) {
  if (file.endsWith('.ts') && !file.endsWith('.test.ts')) entryPoints[file.slice(0, -3)] = `src/cli/${file}`;
}

const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  // the maps point at the files in src/ and packages/*/src instead of carrying a copy of them
  sourcesContent: false,
  // flat: modules that read files next to the package (version.ts) sit one level under it in src/ and dist/
  chunkNames: '[name]-[hash]',
  plugins: [externalPackages],
  logLevel: 'warning',
  metafile: true,
  write: false,
});

if (unresolved.size) {
  console.error(
    `build: these packages are imported by the server's code but cannot be resolved from apps/server; add them to its dependencies:\n  ${[...unresolved].sort().join('\n  ')}`,
  );
  process.exit(1);
}

// Each file is replaced by a rename, and only when it changed, so a server already running from dist/
// (another test run, a dev instance) never reads a half-written file; files of older builds go last.
mkdirSync(outdir, { recursive: true });
const written = new Set();
let bytes = 0;
for (const file of result.outputFiles) {
  written.add(file.path);
  bytes += file.contents.length;
  let same = false;
  try {
    same = readFileSync(file.path).equals(file.contents);
  } catch {
    // not there yet
  }
  if (same) continue;
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
}
// The embedded database's template (docs/operations.md, "Memory of the embedded mode"): written by the
// db package's own code, bundled like the server, in a process of its own; again only when that code, a
// migration or PGlite changed.
const writer = await build({
  absWorkingDir: root,
  stdin: {
    contents: `import { writeEmbeddedTemplate } from '@plenum/db';\nawait writeEmbeddedTemplate(process.argv[2]);`,
    resolveDir: root,
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  plugins: [externalPackages],
  logLevel: 'warning',
  write: false,
});
const migrations = path.join(root, '../../drizzle');
const key = createHash('sha256');
key.update(writer.outputFiles[0].contents);
key.update(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
for (const file of readdirSync(migrations, { recursive: true }).sort()) {
  if (String(file).endsWith('.sql') || String(file).endsWith('_journal.json'))
    key.update(`${file}\0`).update(readFileSync(path.join(migrations, String(file))));
}
const template = path.join(outdir, 'embedded-template.tar.gz');
const keyFile = path.join(outdir, 'embedded-template.key');
const templateKey = key.digest('hex');
let keyBefore = '';
try {
  // both, or it is written again
  if (readFileSync(template).length) keyBefore = readFileSync(keyFile, 'utf8');
} catch {
  // not there yet
}
if (keyBefore !== templateKey) {
  // under node_modules: the bundle's imports resolve from this package, and git never sees it
  const writerFile = path.join(
    root,
    'node_modules/.cache/plenum-build',
    `template-writer-${process.pid}.mjs`,
  );
  mkdirSync(path.dirname(writerFile), { recursive: true });
  writeFileSync(writerFile, writer.outputFiles[0].contents);
  try {
    execFileSync(process.execPath, [writerFile, template], { stdio: 'inherit' });
  } finally {
    rmSync(writerFile, { force: true });
  }
  writeFileSync(`${keyFile}.${process.pid}.tmp`, templateKey);
  renameSync(`${keyFile}.${process.pid}.tmp`, keyFile);
}
written.add(template);
written.add(keyFile);

for (const name of readdirSync(outdir)) {
  const file = path.join(outdir, name);
  if (!written.has(file) && !name.endsWith('.tmp')) rmSync(file, { recursive: true, force: true });
}
console.log(
  `build: dist/ has the server and ${Object.keys(entryPoints).length - 1} tools (${Math.round(bytes / 1024)} KiB), the embedded database's template (${Math.round(readFileSync(template).length / 1024)} KiB${keyBefore === templateKey ? ', unchanged' : ''})`,
);
