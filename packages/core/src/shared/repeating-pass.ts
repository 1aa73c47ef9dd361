import type { Logger } from './logger';

/**
 * A background pass on an interval, one pass at a time, on every instance: the pass itself finds what is
 * due and claims it once across instances (row locks, leases). `nudge()` asks for a pass soon (something
 * became due); tests drive it with `tick()` instead of sleeping.
 */
export abstract class RepeatingPass {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<number> = Promise.resolve(0);
  private stopped = true;
  private nudged = false;

  constructor(
    private readonly log: Logger,
    private readonly intervalMs: number,
    /** what the pass does, for its failure's log line */
    private readonly what: string,
  ) {}

  /** one pass; resolves with the number of things it did */
  protected abstract pass(): Promise<number>;

  start() {
    this.stopped = false;
    this.schedule();
  }

  /** one pass now (after any pass in progress); resolves with what it did, 0 when it failed */
  tick(): Promise<number> {
    this.current = this.current
      .catch(() => 0)
      .then(() => this.pass())
      .catch((err: unknown) => {
        this.log.warn({ err }, `${this.what} failed`);
        return 0;
      });
    return this.current;
  }

  /** a pass soon, after any in progress; nudges while one is waiting fold into it */
  nudge() {
    if (this.stopped || this.nudged) return;
    this.nudged = true;
    void this.current.finally(() => {
      this.nudged = false;
      if (!this.stopped) void this.tick();
    });
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current.catch(() => 0);
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref();
  }
}
