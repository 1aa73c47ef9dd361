import { createDb, type DbHandle } from '@plenum/db';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DB } from './support/app';

/** the embedded database's memory settings reach PostgreSQL (docs/operations.md, "Memory of the embedded mode") */
describe.runIf(TEST_DB === 'pglite')("the embedded database's memory", () => {
  let handle: DbHandle | null = null;
  afterEach(async () => {
    await handle?.close();
    handle = null;
  });
  const setting = async (name: string) => {
    const res = (await handle!.db.execute(sql.raw(`show ${name}`))) as unknown as {
      rows: Record<string, string>[];
    };
    return res.rows[0]![name];
  };

  it('is small by default', async () => {
    handle = await createDb({ dataDir: 'memory://' });
    expect(await setting('shared_buffers')).toBe('16MB');
    expect(await setting('maintenance_work_mem')).toBe('16MB');
    // PGlite's own start parameters are kept beside them
    expect(await setting('max_parallel_workers')).toBe('0');
  });

  it('takes the configured sizes', async () => {
    handle = await createDb({
      dataDir: 'memory://',
      embedded: { sharedBuffers: '32MB', maintenanceWorkMem: '8MB' },
    });
    expect(await setting('shared_buffers')).toBe('32MB');
    expect(await setting('maintenance_work_mem')).toBe('8MB');
  });
});
