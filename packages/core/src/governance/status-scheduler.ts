import type { Services } from '../services';
import { sendDueReminders } from './notifications';
import { advanceDueProposals } from './status-automation';

/**
 * Runs the status automation on a short interval (well within the ~1 s of docs/governance.md, "Status
 * automation"). Several instances may each run one: the row lock in advanceProposal makes every step happen
 * once. Tests drive it with `tick()` and a ManualClock instead of sleeping.
 */
export class StatusScheduler {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<number> = Promise.resolve(0);
  private stopped = true;

  constructor(
    private readonly svc: Services,
    private readonly intervalMs = 250,
  ) {}

  start() {
    this.stopped = false;
    this.schedule();
  }

  /**
   * one pass now (after any pass in progress): status steps, then reminder mails; resolves with the
   * number of proposals whose status changed
   */
  tick(): Promise<number> {
    this.current = this.current
      .catch(() => 0)
      .then(() => advanceDueProposals(this.svc))
      .catch((err: unknown) => {
        this.svc.log.warn({ err }, 'proposal status automation pass failed');
        return 0;
      })
      .then(async (changed) => {
        // reminder mails due (docs/governance.md, "Notifications"), claimed once across instances
        await sendDueReminders(this.svc).catch((err: unknown) => {
          this.svc.log.warn({ err }, 'proposal reminder pass failed');
        });
        return changed;
      });
    return this.current;
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
