import type { Database } from '@plenum/db';
import type { CoreConfig } from './config';
import type { Clock } from './shared/clock';
import type { Logger } from './shared/logger';

/**
 * What the service container is built from: the database, settings, time and a logger. The container's
 * own parts (governance/runtime.ts, auth/session-lookup.ts, …) take this rather than `Services`, which
 * names them, so that imports run one way.
 */
export interface ServiceBase {
  db: Database;
  config: CoreConfig;
  clock: Clock;
  log: Logger;
}
