import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { createDao, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * A request that PostgreSQL stops in a deadlock answers 503 DATABASE_BUSY with Retry-After, writes
 * nothing, and succeeds when sent again (docs/operations.md, "Lock conflicts"). The deadlock is a real one:
 * a trigger makes the DAO edit wait for an advisory lock this test holds while the test waits for the DAO
 * row the edit holds; the test's side waits a minute before looking for deadlocks, so PostgreSQL breaks
 * the cycle on the request's side.
 */
describe.runIf(TEST_DB === 'postgres')('a deadlock in a request', () => {
  let t: TestApp;
  let api: ApiClient;
  let sql: postgres.Sql;
  let drop: () => Promise<void>;
  let owner: Member;
  let daoId: string;

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    t = await startTestApp({ databaseUrl: db.url });
    api = apiClient(t.url);
    sql = postgres(db.url!, { max: 2, onnotice: () => {} });
    owner = await memberUser(api);
    daoId = (await createDao(api, owner)).daoId;
    await sql.unsafe(`
      create function lock_conflict_probe() returns trigger language plpgsql as $$
      begin perform pg_advisory_xact_lock(4242); return new; end $$;
      create trigger lock_conflict_probe before insert on governance_history
        for each row execute function lock_conflict_probe();`);
  });
  afterAll(async () => {
    await t?.close();
    await sql?.end();
    await drop?.();
  });

  it('answers 503 DATABASE_BUSY with Retry-After; nothing is written; sent again it succeeds', async () => {
    const edit = () =>
      api.request('PATCH', `/daos/${daoId}`, { name: 'Renamed in a deadlock' }, { token: owner.token });
    const answer = await sql.begin(async (tx) => {
      await tx`set local deadlock_timeout = '1min'`;
      await tx`select pg_advisory_xact_lock(4242)`;
      const pending = edit();
      // the edit holds the DAO row and waits for the advisory lock
      for (;;) {
        const [w] = await sql`
          select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
        if (w!.n > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // and now this side waits for the DAO row: a cycle, which the edit's side detects and ends
      await tx`update daos set updated_at = now() where id = ${daoId}`;
      return pending;
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'DATABASE_BUSY' });
    expect(answer.text).not.toMatch(/deadlock|pg_|stack/i);

    const dao = await api.get(`/daos/${daoId}`);
    expect(dao.body.name).not.toBe('Renamed in a deadlock');
    const history = await api.get(`/daos/${daoId}/history`);
    expect(JSON.stringify(history.body)).not.toContain('Renamed in a deadlock');

    const again = await edit();
    expect(again.status).toBe(200);
    expect((await api.get(`/daos/${daoId}`)).body.name).toBe('Renamed in a deadlock');
  });
});
