import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  createDb,
  type DbHandle,
  dumpEmbeddedDatabase,
  MIGRATIONS_DIR,
  writeEmbeddedTemplate,
} from '@plenum/db';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_DB } from './support/app';

/**
 * A first start over an empty data directory opens the build's template instead of running initdb and
 * every migration (docs/operations.md, "Memory of the embedded mode"); the database it gives persists.
 */
describe.runIf(TEST_DB === 'pglite')("the embedded database's template", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-embedded-template-'));
  let handle: DbHandle | null = null;
  afterEach(async () => {
    await handle?.close();
    handle = null;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const rows = async <T>(query: string) =>
    ((await handle!.db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  const applied = async () =>
    (await rows<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations'))[0]!.n;

  it('gives a first start every migration, pg_trgm, and data that survive a restart', async () => {
    const template = path.join(dir, 'template.tar.gz');
    await writeEmbeddedTemplate(template);
    const dataDir = path.join(dir, 'from-template');

    handle = await createDb({ dataDir, embeddedTemplate: template });
    expect(await applied()).toBe(journal.entries.length);
    await handle.migrate();
    // nothing left to apply, nothing applied twice
    expect(await applied()).toBe(journal.entries.length);
    expect((await rows<{ s: number }>("select similarity('plenum', 'plenun') as s"))[0]!.s).toBeGreaterThan(
      0.3,
    );
    await handle.db.execute(sql`create table kept (x text)`);
    await handle.db.execute(sql`insert into kept values ('after the first start')`);
    await handle.close();

    // a restart: the directory holds a database, the template is not read
    handle = await createDb({ dataDir, embeddedTemplate: path.join(dir, 'missing.tar.gz') });
    await handle.migrate();
    expect(await rows('select x from kept')).toEqual([{ x: 'after the first start' }]);
    expect(await applied()).toBe(journal.entries.length);
    await handle.close();
    handle = null;

    // db:export reads it (docs/operations.md, "Backups and moving to PostgreSQL and Kubo")
    const dump = await dumpEmbeddedDatabase(dataDir);
    expect(dump.migrations).toBe(journal.entries.length);
    expect(dump.sql).toContain('after the first start');
  });

  it('is what a first start opens, and migrations newer than it still run', async () => {
    // a template older than every migration, marked so its use shows
    const pg = await PGlite.create();
    await pg.exec('create table template_mark (x int)');
    const template = path.join(dir, 'old-template.tar.gz');
    writeFileSync(template, Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer()));
    await pg.close();

    handle = await createDb({ dataDir: path.join(dir, 'from-old-template'), embeddedTemplate: template });
    expect(await rows("select to_regclass('template_mark') is not null as t")).toEqual([{ t: true }]);
    await handle.migrate();
    expect(await applied()).toBe(journal.entries.length);
  });

  it('is not needed: without one a first start runs initdb and every migration', async () => {
    const dataDir = path.join(dir, 'without-template');
    handle = await createDb({ dataDir, embeddedTemplate: path.join(dir, 'missing.tar.gz') });
    await handle.migrate();
    expect(await applied()).toBe(journal.entries.length);
    await handle.close();
    handle = await createDb({ dataDir, embeddedTemplate: null });
    await handle.migrate();
    expect(await applied()).toBe(journal.entries.length);
  });
});
