// Grant or revoke the admin role: `npm run admin -- grant someone@example.org` (or `revoke`).
import path from 'node:path';
import { createCoreServices, createLogger, setRoleByEmail, systemClock } from '@plenum/core';
import { createDb } from '@plenum/db';
import { coreConfigFromEnv } from '../config';
import { EnvError, loadEnv } from '../env';

const [action, email] = process.argv.slice(2).filter((a) => a !== '--');
if ((action !== 'grant' && action !== 'revoke') || !email) {
  console.error('usage: npm run admin -- grant|revoke <email>');
  process.exit(2);
}
try {
  const env = loadEnv();
  const handle = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'pg') });
  await handle.migrate();
  const svc = createCoreServices({
    db: handle.db,
    config: coreConfigFromEnv(env),
    clock: systemClock,
    log: createLogger({ level: 'warn' }),
  });
  const user = await setRoleByEmail(svc, { email, role: action === 'grant' ? 'admin' : 'user' });
  console.log(`${user.email} is now ${user.role}`);
  await handle.close();
} catch (err) {
  console.error(err instanceof EnvError ? err.message : (err as Error).message);
  process.exit(1);
}
