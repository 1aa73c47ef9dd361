import { AppError } from '../shared/errors';

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

export interface StreamLimits {
  /** tRPC subscriptions on one WebSocket */
  perConnection: number;
  /** one user's open streams on this instance: tRPC subscriptions and Socket.IO connections */
  perUser: number;
}

/** One WebSocket's share of the limits: its subscription slots and the backpressure of its socket. */
export interface StreamConnection {
  streams: ConnectionStreams;
  pace?: ((signal?: AbortSignal) => Promise<void> | undefined) | undefined;
}

const refusal = (message: string) =>
  new AppError('TOO_MANY_REQUESTS', message, { reason: 'TOO_MANY_SUBSCRIPTIONS' });

/**
 * The open streams of one connection (a tRPC WebSocket). Closing it gives back every slot its streams
 * still hold, whether or not their generators ever ran to their end.
 */
export class ConnectionStreams {
  private readonly held = new Set<Release>();
  private closed = false;

  constructor(readonly max: number) {}

  get open() {
    return this.held.size;
  }

  /** @internal the admission's bookkeeping */
  hold(release: Release): Release {
    if (this.closed) {
      release();
      return release;
    }
    const once = () => {
      if (this.held.delete(once)) release();
    };
    this.held.add(once);
    return once;
  }

  close() {
    this.closed = true;
    for (const release of [...this.held]) release();
  }
}

/**
 * Who may open another event stream on this instance (docs/events.md, "Limits"): at most `perUser`
 * streams per user, and on a WebSocket at most `perConnection` subscriptions. The counts are this
 * instance's own: behind a load balancer a user may hold that many on each instance.
 */
export class StreamAdmission {
  private readonly byUser = new Map<string, number>();

  constructor(readonly limits: StreamLimits) {}

  /** Takes a slot for one stream, or throws TOO_MANY_REQUESTS (reason TOO_MANY_SUBSCRIPTIONS). */
  admit(userId: string, connection?: ConnectionStreams): Release {
    if (connection && connection.open >= connection.max)
      throw refusal(`At most ${connection.max} event subscriptions on this connection`);
    const n = this.byUser.get(userId) ?? 0;
    if (n >= this.limits.perUser)
      throw refusal(`At most ${this.limits.perUser} open event streams per user; close one first`);
    this.byUser.set(userId, n + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left > 0) this.byUser.set(userId, left);
      else this.byUser.delete(userId);
    };
    return connection ? connection.hold(release) : release;
  }

  /** a user's open streams on this instance (diagnostics and tests) */
  openStreams(userId: string): number {
    return this.byUser.get(userId) ?? 0;
  }
}

/**
 * A counting semaphore: at most `max` holders at once, the others wait in arrival order. Bounds how
 * many replays read the database at the same time, so that the pool (one connection on PGlite) and the
 * event loop stay free for other requests.
 */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** tasks running and waiting (diagnostics and tests) */
  get load() {
    return { active: this.active, waiting: this.waiting.length };
  }
}
