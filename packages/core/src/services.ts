import type { Database } from '@plenum/db';
import type { CoreConfig } from './config';
import type { Clock } from './shared/clock';
import type { Logger } from './shared/logger';

/** What core functions need besides their params: the database, settings, time and a logger. */
export interface Services {
  db: Database;
  config: CoreConfig;
  clock: Clock;
  log: Logger;
}
