// `npm run migrate`: applies the committed migrations to DATABASE_URL, or to the PGlite data in DATA_DIR.
import path from 'node:path';
import { createDb } from './client';

const dataDir = path.resolve(
  process.env.DATA_DIR ?? path.join(process.env.INIT_CWD ?? process.cwd(), '.data'),
  'pg',
);
const handle = await createDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
await handle.migrate();
await handle.close();
console.log(`migrations applied (${handle.kind})`);
