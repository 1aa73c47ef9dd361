import path from 'node:path';
import { createDb } from '@plenum/db';
import type { Env } from '../env';

/**
 * The database, migrated: the app serves only after every migration is applied (or found applied), which
 * is why /ready reports them 'ok' (system-routes.ts).
 */
export async function openDatabase(env: Env, pgliteDir?: string) {
  const dbHandle = await createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: pgliteDir ?? path.join(env.dataDir, 'pg'),
    maxConnections: env.DATABASE_POOL_SIZE,
    connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT,
    acquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT,
    embedded: {
      sharedBuffers: env.PGLITE_SHARED_BUFFERS,
      maintenanceWorkMem: env.PGLITE_MAINTENANCE_WORK_MEM,
    },
  });
  await dbHandle.migrate();
  return dbHandle;
}
