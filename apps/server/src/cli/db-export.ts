// `npm run db:export -- [--out <file> | --out -] [--force]`: the embedded PGlite database (DATA_DIR/pg) as
// a plain-SQL dump that an empty PostgreSQL 15+ database imports with psql (docs/operations.md, "Moving
// off the embedded defaults"). Exit codes: 0 written, 1 failed, 2 refused (usage, no database, in use).
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dumpEmbeddedDatabase, embeddedDataInUse, hasEmbeddedDatabase } from '@plenum/db';
import { EnvError, loadEnv } from '../env';

const USAGE = 'usage: npm run db:export -- [--out <file.sql> | --out -] [--force]';

/** a path as the user would type it from where they are: relative below it, absolute elsewhere */
const shown = (from: string, file: string) => {
  const rel = path.relative(from, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
};

function refuse(message: string): never {
  console.error(`db:export: ${message}`);
  process.exit(2);
}

let options: { out?: string | undefined; force?: boolean | undefined; help?: boolean | undefined };
try {
  options = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      out: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  refuse(`${(err as Error).message}\n${USAGE}`);
}
if (options.help) {
  console.error(USAGE);
  process.exit(0);
}

try {
  const env = loadEnv();
  const pgDir = path.join(env.dataDir, 'pg');
  if (!hasEmbeddedDatabase(pgDir))
    refuse(`no embedded database in ${pgDir} (DATA_DIR=${env.dataDir}): nothing to export`);
  if (!options.force) {
    const busy = embeddedDataInUse(env.dataDir);
    if (busy) refuse(busy);
  }
  if (env.DATABASE_URL)
    console.error('db:export: note: DATABASE_URL is set; this exports the embedded database, not that one');

  const dump = await dumpEmbeddedDatabase(pgDir);
  if (dump.migrations === undefined)
    console.error('db:export: warning: the database has no migrations table (never migrated by Plenum?)');

  const about = `from ${pgDir} (PGlite, PostgreSQL ${dump.serverVersion}; ${dump.migrations ?? 0} migrations)`;
  if (options.out === '-') {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(dump.sql, (err) => (err ? reject(err) : resolve())),
    );
    console.error(`db:export: dump written to standard output ${about}`);
  } else {
    // relative to where `npm run` was typed (npm runs the script at the repository's root)
    const here = process.env.INIT_CWD ?? process.cwd();
    const out = path.resolve(here, options.out ?? `plenum-${new Date().toISOString().slice(0, 10)}.sql`);
    // a failed or cut export never leaves a file that looks complete
    const partial = `${out}.partial`;
    try {
      writeFileSync(partial, dump.sql);
      renameSync(partial, out);
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
    const kib = Math.ceil(Buffer.byteLength(dump.sql) / 1024);
    console.error(`db:export: wrote ${out} (${kib} KiB) ${about}`);
    console.error(
      `db:export: import it into an empty database: psql "$DATABASE_URL" -v ON_ERROR_STOP=1 --single-transaction -f ${shown(here, out)}`,
    );
  }
  process.exit(0);
} catch (err) {
  console.error(`db:export: ${err instanceof EnvError ? err.message : (err as Error).message}`);
  process.exit(1);
}
