/**
 * Whether the database answers, so that requests fail fast while it does not (docs/operations.md,
 * "Database outages"). A request that meets a connection failure reports it (`suspect`); one probe at
 * a time then pings with a deadline, and while probes fail every request is answered 503 at once
 * instead of each waiting for its own connection attempt. Probing goes on in the background until a
 * ping succeeds: traffic recovers without a restart.
 */
export interface Availability {
  /** false from a failed probe until a successful one */
  readonly up: boolean;
  /** a connection failure was seen: probe now (no-op while a probe runs) */
  suspect(): void;
  /**
   * ping with a deadline, for /health. A success marks the database up; a miss alone does not mark it
   * down (a slow answer under load is not an outage): only a probe after a connection failure does.
   */
  check(): Promise<boolean>;
  stop(): void;
}

export interface AvailabilityOptions {
  /** one round trip on a pooled connection; false or a rejection means down */
  ping: () => Promise<boolean>;
  /** how long a ping may take before it counts as failed */
  deadlineMs: number;
  /** pause between probes while down */
  retryMs: number;
  onChange?: (up: boolean) => void;
}

export function watchAvailability(options: AvailabilityOptions): Availability {
  let up = true;
  let stopped = false;
  let probing: Promise<boolean> | null = null;
  /** a ping that outlived its deadline (a hung connection): never start a second one beside it */
  let pending: Promise<boolean> | null = null;
  let retry: NodeJS.Timeout | null = null;

  const set = (next: boolean) => {
    if (next === up) return;
    up = next;
    options.onChange?.(next);
  };

  function pingWithDeadline(): Promise<boolean> {
    if (!pending) {
      pending = options.ping().catch(() => false);
      const mine = pending;
      // whenever it settles, the next probe may ping again; a late success still counts
      void mine.then((ok) => {
        if (pending === mine) pending = null;
        if (ok) set(true);
      });
    }
    const current = pending;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), options.deadlineMs);
      timer.unref?.();
      void current.then((ok) => {
        clearTimeout(timer);
        resolve(ok);
      });
    });
  }

  function probe(): Promise<boolean> {
    if (probing) return probing;
    probing = pingWithDeadline().then((ok) => {
      probing = null;
      set(ok);
      if (!ok && !stopped && !retry) {
        retry = setTimeout(() => {
          retry = null;
          void probe();
        }, options.retryMs);
        retry.unref?.();
      }
      return ok;
    });
    return probing;
  }

  return {
    get up() {
      return up;
    },
    suspect() {
      if (!stopped) void probe();
    },
    check: () => (probing ? probing : pingWithDeadline()),
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
    },
  };
}
