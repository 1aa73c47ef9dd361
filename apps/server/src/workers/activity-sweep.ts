import { type Services, sweepAccountEvents } from '@plenum/core';

/** how often account events past their retention are deleted */
const SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes account events older than their retention (docs/accounts.md, "Account activity"): once at start,
 * then hourly. Several instances may sweep at once: a delete of rows already gone is harmless.
 */
export function startActivitySweeper(svc: Services, intervalMs = SWEEP_INTERVAL_MS) {
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= sweepAccountEvents(svc)
      .then((n) => {
        if (n) svc.log.info({ deleted: n }, 'account events past their retention deleted');
      })
      .catch((err: unknown) => svc.log.warn({ err: (err as Error).message }, 'account event sweep failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  void tick();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
