import type { Services } from '../services';
import { AppError } from '../shared/errors';

/**
 * How much argon2 work the server does at once (docs/accounts.md, "Password guessing"). Each check
 * costs ~19 MiB and tens of milliseconds of a thread, so one client sending many sign-ins at once could
 * otherwise hold every thread and make everybody else wait: at most `concurrency` checks run at once,
 * at most `queue` more wait for a turn, and one client (its IP, as the rate limits see it) holds at most
 * `perClient` of these places; beyond either, 429 PASSWORD_CHECKS_BUSY at once, before any work.
 */
export interface PasswordCheckLimits {
  perClient: number;
  concurrency: number;
  queue: number;
}

const busy = () =>
  new AppError('TOO_MANY_REQUESTS', 'Too many password checks at once; try again in a moment', {
    reason: 'PASSWORD_CHECKS_BUSY',
    retryAfterSeconds: 1,
  });

/** one process's argon2 budget: every instance of the app in the process shares the machine's threads */
let running = 0;
const waiting: (() => void)[] = [];
const byClient = new Map<string, number>();

/** Runs `check` (a password verification or hash) within the limits, or refuses with 429. */
export async function checkingPasswords<T>(
  svc: Pick<Services, 'config'>,
  client: string | null,
  check: () => Promise<T>,
): Promise<T> {
  const limits = svc.config.passwordChecks;
  const key = client ?? '';
  const mine = byClient.get(key) ?? 0;
  if (
    (client && mine >= limits.perClient) ||
    (running >= limits.concurrency && waiting.length >= limits.queue)
  )
    throw busy();
  byClient.set(key, mine + 1);
  try {
    if (running < limits.concurrency) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over as it ends
    try {
      return await check();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  } finally {
    const left = (byClient.get(key) ?? 1) - 1;
    if (left > 0) byClient.set(key, left);
    else byClient.delete(key);
  }
}

/** how many checks run and wait now (for tests and metrics) */
export const passwordChecksInFlight = () => ({ running, waiting: waiting.length });
