// `npm run db:export -- [--out <file> | --out -] [--force]`: the embedded PGlite database (DATA_DIR/pg) as
// a plain-SQL dump that an empty PostgreSQL 15+ database imports with psql (docs/operations.md, "Moving
// off the embedded defaults"). Exit codes: 0 written, 1 failed, 2 refused (usage, no database, in use).
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dumpEmbeddedDatabase, embeddedDataInUse, hasEmbeddedDatabase } from '@plenum/db';
import { loadEnv } from '../env';
import { exportCli } from './shared/export-cli';

const cli = exportCli('db:export', 'usage: npm run db:export -- [--out <file.sql> | --out -] [--force]');
const { refuse } = cli;

try {
  const env = loadEnv();
  const pgDir = path.join(env.dataDir, 'pg');
  if (!hasEmbeddedDatabase(pgDir))
    refuse(`no embedded database in ${pgDir} (DATA_DIR=${env.dataDir}): nothing to export`);
  if (!cli.options.force) {
    const busy = embeddedDataInUse(env.dataDir);
    if (busy) refuse(busy);
  }
  if (env.DATABASE_URL)
    cli.note('note: DATABASE_URL is set; this exports the embedded database, not that one');

  const dump = await dumpEmbeddedDatabase(pgDir);
  if (dump.migrations === undefined)
    cli.note('warning: the database has no migrations table (never migrated by Plenum?)');

  const about = `from ${pgDir} (PGlite, PostgreSQL ${dump.serverVersion}; ${dump.migrations ?? 0} migrations)`;
  const out = cli.out(`plenum-${new Date().toISOString().slice(0, 10)}.sql`);
  if (out === '-') {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(dump.sql, (err) => (err ? reject(err) : resolve())),
    );
    cli.note(`dump written to standard output ${about}`);
  } else {
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
    cli.note(`wrote ${out} (${kib} KiB) ${about}`);
    cli.note(
      `import it into an empty database: psql "$DATABASE_URL" -v ON_ERROR_STOP=1 --single-transaction -f ${cli.shown(out)}`,
    );
  }
  process.exit(0);
} catch (err) {
  cli.fail(err);
}
