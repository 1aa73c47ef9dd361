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

const get = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
const add = (m: Map<string, number>, k: string, d: number) => {
  const n = get(m, k) + d;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

/**
 * The argon2 budget of one service container (`svc.passwordChecks`; one per server process, whose
 * threads it shares out).
 */
export class PasswordGate {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly waitingBy = new Map<string, number>();
  private readonly line: { client: string; start: () => void }[] = [];

  constructor(private readonly limits: PasswordCheckLimits) {}

  /** Runs `check` (a password verification) within the limits, or refuses with 429. */
  async run<T>(client: string | null, check: () => Promise<T>): Promise<T> {
    const { limits } = this;
    const key = client ?? '';
    if (this.running < limits.concurrency && get(this.runningBy, key) < limits.perClient) {
      this.running++;
      add(this.runningBy, key, 1);
    } else {
      if (this.line.length >= limits.queue || get(this.waitingBy, key) >= limits.perClientQueue) throw busy();
      add(this.waitingBy, key, 1);
      // the slot is taken for this waiter by startWaiting before it resumes
      await new Promise<void>((start) => this.line.push({ client: key, start }));
      add(this.waitingBy, key, -1);
    }
    try {
      return await check();
    } finally {
      this.running--;
      add(this.runningBy, key, -1);
      this.startWaiting();
    }
  }

  /** how many checks run and wait now */
  inFlight() {
    return { running: this.running, waiting: this.line.length };
  }

  /** hands free slots to the first waiters whose clients are under their share */
  private startWaiting() {
    while (this.running < this.limits.concurrency) {
      const i = this.line.findIndex((w) => get(this.runningBy, w.client) < this.limits.perClient);
      if (i < 0) return;
      const [next] = this.line.splice(i, 1);
      this.running++;
      add(this.runningBy, next!.client, 1);
      next!.start();
    }
  }
}

/** Runs `check` (a password verification) within the container's limits, or refuses with 429. */
export const checkingPasswords = <T>(
  svc: { passwordChecks: PasswordGate },
  client: string | null,
  check: () => Promise<T>,
): Promise<T> => svc.passwordChecks.run(client, check);
