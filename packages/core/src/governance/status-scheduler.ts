import type { Services } from '../services';
import { RepeatingPass } from '../shared/repeating-pass';
import { sendDueReminders } from './notifications';
import { advanceDueProposals } from './status-automation';

/**
 * Runs the status automation on a short interval (well within the ~1 s of docs/governance.md, "Status
 * automation"). Several instances may each run one: the row lock in advanceProposal makes every step happen
 * once. Tests drive it with `tick()` and a ManualClock instead of sleeping.
 */
export class StatusScheduler extends RepeatingPass {
  constructor(
    private readonly svc: Services,
    intervalMs = 250,
  ) {
    super(svc.log, intervalMs, 'proposal status automation pass');
  }

  /**
   * status steps, then reminder mails; resolves with the number of proposals whose status changed
   */
  protected async pass(): Promise<number> {
    const changed = await advanceDueProposals(this.svc).catch((err: unknown) => {
      this.svc.log.warn({ err }, 'proposal status automation pass failed');
      return 0;
    });
    // reminder mails due (docs/governance.md, "Notifications"), claimed once across instances
    await sendDueReminders(this.svc).catch((err: unknown) => {
      this.svc.log.warn({ err }, 'proposal reminder pass failed');
    });
    return changed;
  }
}
