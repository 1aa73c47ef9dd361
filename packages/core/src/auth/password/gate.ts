import type { Services } from '../../services';
import { AppError } from '../../shared/errors';

/**
 * How much argon2 work the server does at once (docs/accounts.md, "Password guessing"). Each check
 * costs ~19 MiB and tens of milliseconds of a thread, so one client sending many sign-ins at once could
 * otherwise hold every thread and make everybody else wait. At most `concurrency` checks run at once,
 * of which at most `perClient` for one client (its IP, as the rate limits see it); the others wait in
 * line, at most `queue` in all and `perClientQueue` per client, and a freed slot goes to the first
 * waiter whose client is under its share, so a flood from one client never stands in front of another.
 * Beyond the lines: 429 PASSWORD_CHECKS_BUSY at once, before any work.
 */
export interface PasswordCheckLimits {
  concurrency: number;
  queue: number;
  perClient: number;
  perClientQueue: number;
}

const busy = () =>
  new AppError('TOO_MANY_REQUESTS', 'Too many password checks at once; try again in a moment', {
    reason: 'PASSWORD_CHECKS_BUSY',
    retryAfterSeconds: 1,
  });

// one process's argon2 budget: every app instance in the process shares the machine's threads
let running = 0;
const runningBy = new Map<string, number>();
const waitingBy = new Map<string, number>();
const line: { client: string; start: () => void }[] = [];

const get = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
const add = (m: Map<string, number>, k: string, d: number) => {
  const n = get(m, k) + d;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

/** hands free slots to the first waiters whose clients are under their share */
function startWaiting(limits: PasswordCheckLimits) {
  while (running < limits.concurrency) {
    const i = line.findIndex((w) => get(runningBy, w.client) < limits.perClient);
    if (i < 0) return;
    const [next] = line.splice(i, 1);
    running++;
    add(runningBy, next!.client, 1);
    next!.start();
  }
}

/** Runs `check` (a password verification) within the limits, or refuses with 429. */
export async function checkingPasswords<T>(
  svc: Pick<Services, 'config'>,
  client: string | null,
  check: () => Promise<T>,
): Promise<T> {
  const limits = svc.config.passwordChecks;
  const key = client ?? '';
  if (running < limits.concurrency && get(runningBy, key) < limits.perClient) {
    running++;
    add(runningBy, key, 1);
  } else {
    if (line.length >= limits.queue || get(waitingBy, key) >= limits.perClientQueue) throw busy();
    add(waitingBy, key, 1);
    // the slot is taken for this waiter by startWaiting before it resumes
    await new Promise<void>((start) => line.push({ client: key, start }));
    add(waitingBy, key, -1);
  }
  try {
    return await check();
  } finally {
    running--;
    add(runningBy, key, -1);
    startWaiting(limits);
  }
}

/** how many checks run and wait now */
export const passwordChecksInFlight = () => ({ running, waiting: line.length });
