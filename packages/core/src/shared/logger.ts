import { type Logger, pino } from 'pino';

export type { Logger };

/** Secrets never reach the logs, whatever a caller passes in. */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'signature',
  '*.signature',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({ level: options.level ?? 'info', name: options.name ?? 'plenum', redact: REDACT_PATHS });
}
