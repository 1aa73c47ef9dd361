import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@plenum/core';
import { createDb, type DbHandle } from '@plenum/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, freshPgliteDir } from './support/app';

/**
 * Error logs never carry query parameters, row values or secrets (docs/operations.md, "Logs"): a
 * failed query's error, as the real driver raises it, is logged and the line is searched for them.
 */
let db: DbHandle;
let drop: () => Promise<void>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-logging-'));

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  db = await createDb({ databaseUrl: fresh.url, dataDir: fresh.url ? undefined : freshPgliteDir(dataDir) });
});
afterAll(async () => {
  await db?.close();
  await drop?.();
  rmSync(dataDir, { recursive: true, force: true });
});

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { log: createLogger({ level: 'info', destination }), text: () => lines.join('') };
}

const SECRET = 'plenum_pat_d0e5b0c1a2f3secretvalue';

describe('error logs', () => {
  it('leave out the parameters of a failed query but keep what helps (SQL text, code)', async () => {
    const err = await db.db.execute(sql`select ${SECRET}::int as n`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const { log, text } = capture();
    log.error({ err }, 'procedure failed');
    const line = text();
    expect(line).not.toContain(SECRET);
    expect(line).toContain('select $1::int');
    expect(line).toContain('22P02'); // invalid_text_representation, from the cause
  });

  it('leave out the row values of a constraint violation (PostgreSQL detail)', async () => {
    await db.db.execute(sql`create table log_probe (k text primary key)`);
    await db.db.execute(sql`insert into log_probe values (${SECRET})`);
    const err = await db.db.execute(sql`insert into log_probe values (${SECRET})`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    const { log, text } = capture();
    log.error({ err }, 'procedure failed');
    log.warn({ error: err }, 'another key');
    const line = text();
    expect(line).not.toContain(SECRET);
    expect(line).toContain('23505');
  });
});
