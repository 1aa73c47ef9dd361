import type { Database, DbHandle } from '@plenum/db';
import { EVENTS_CHANNEL, type EventEnvelope } from '../governance/event-log';
import type { Logger } from '../shared/logger';
import {
  currentXactId,
  MAX_EVENT_PAGE,
  maxEventId,
  readEvents,
  readEventsByIds,
  xactsEndedBefore,
} from './feed';
import type { EventFilter } from './filter';
import { type ConnectionStreams, Gate, StreamAdmission, type StreamLimits } from './limits';
import { Sequencer, type SequencerOptions } from './sequencer';
import { EventSubscription, type LiveEventSource } from './subscription';

export interface EventBusOptions extends SequencerOptions {
  /** safety-net read when no notification arrives (a dropped LISTEN connection, a missed NOTIFY) */
  pollMs: number;
  /** re-read interval while a gap holds delivery back */
  retryMs: number;
  /** events one subscriber may fall behind before it catches up from the table instead */
  queueLimit: number;
  /** how often an open stream re-checks its client's token (suspension, logout, revocation) */
  revalidateMs: number;
  /** open streams per user and per WebSocket (docs/events.md, "Limits") */
  limits: StreamLimits;
  /** replays reading the table at once; further ones queue */
  replayConcurrency: number;
  /** wraps each synchronous hand-off of new events to the subscribers (used to coalesce socket writes) */
  aroundDelivery?: ((deliver: () => void) => void) | undefined;
}

export const defaultBusOptions: EventBusOptions = {
  pollMs: 1000,
  retryMs: 20,
  graceMs: 25,
  maxWaitMs: 10_000,
  lateWatchMs: 10 * 60_000,
  queueLimit: 10_000,
  revalidateMs: 60_000,
  limits: { perConnection: 20, perUser: 50 },
  replayConcurrency: 2,
};

/**
 * This instance's view of the stored event stream. Every instance LISTENs on `plenum_events`; a
 * notification (or the poll) makes it read the table after its cursor and hand each new event, in id
 * order and exactly once, to its local subscribers. The Sequencer decides how far that is safe.
 */
export class EventBus implements LiveEventSource {
  cursor = 0;
  private readonly subs = new Set<EventSubscription>();
  private seq = new Sequencer(0, defaultBusOptions);
  private readonly opts: EventBusOptions;
  private started: Promise<void> | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  private live = false;
  private stopped = false;
  private unlisten: (() => Promise<void>) | null = null;
  private poll: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private deliveryObservers: ((events: readonly EventEnvelope[]) => void)[] = [];
  private readonly admission: StreamAdmission;
  /** the replays reading the table now, at most `replayConcurrency` (the others queue) */
  readonly replays: Gate;
  /** streams waiting for their client to read what was sent (backpressure; diagnostics and tests) */
  streamsWaitingForClients = 0;

  constructor(
    private readonly db: Database,
    private readonly handle: Pick<DbHandle, 'listen'>,
    private readonly log: Logger,
    options: Partial<EventBusOptions> = {},
  ) {
    this.opts = { ...defaultBusOptions, ...options };
    this.admission = new StreamAdmission(this.opts.limits);
    this.replays = new Gate(this.opts.replayConcurrency);
  }

  /** Listens, then finds the starting point; subscriptions wait for `ready()`. */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unlisten = await this.handle.listen(EVENTS_CHANNEL, (payload) => {
        if (!(Number(payload) <= this.cursor)) this.kick();
      });
      const start = await maxEventId({ db: this.db });
      this.cursor = start;
      this.seq = new Sequencer(start, this.opts);
      this.live = true;
      await this.settleStart();
      this.poll = setInterval(this.kick, this.opts.pollMs);
      this.poll.unref();
      this.kick();
    })();
    return this.started;
  }

  get revalidateMs() {
    return this.opts.revalidateMs;
  }

  ready(): Promise<void> {
    return this.start();
  }

  subscribe(filter: EventFilter, signal?: AbortSignal): EventSubscription {
    const sub = new EventSubscription(this, filter, this.opts.queueLimit, (s) => this.subs.delete(s));
    this.subs.add(sub);
    return sub.bind(signal);
  }

  /** A slot for one more stream of this user (and connection), or TOO_MANY_REQUESTS (docs/events.md, "Limits"). */
  admit(userId: string, connection?: ConnectionStreams) {
    return this.admission.admit(userId, connection);
  }

  /** a user's open streams on this instance (diagnostics and tests) */
  openStreams(userId: string): number {
    return this.admission.openStreams(userId);
  }

  /**
   * Calls `observer` right after each hand-off with the events just handed to this instance's live
   * subscribers (every event the bus delivers, once, however many subscribers there are; late ones too):
   * the delivery lag of /metrics. It must be cheap and must not throw. Returns the function that stops it.
   */
  observeDelivery(observer: (events: readonly EventEnvelope[]) => void): () => void {
    this.deliveryObservers = [...this.deliveryObservers, observer];
    return () => {
      this.deliveryObservers = this.deliveryObservers.filter((o) => o !== observer);
    };
  }

  /** the filters of this instance's live subscriptions (diagnostics and tests) */
  get subscriptions(): EventFilter[] {
    return [...this.subs].map((s) => s.filter);
  }

  async stop() {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.retry) clearTimeout(this.retry);
    for (const s of [...this.subs]) s.close();
    await this.pumping?.catch(() => {});
    await this.unlisten?.().catch(() => {});
  }

  /** Read now (or right after the read in progress). */
  readonly kick = () => {
    if (this.stopped || !this.live) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
    });
  };

  // A lower id may still be committed by a writer that was running when we read the newest id; replays
  // are bounded by the cursor, so wait until those writers have ended before serving anyone.
  private async settleStart() {
    await sleep(this.opts.graceMs);
    const xid = await currentXactId({ db: this.db });
    const deadline = performance.now() + this.opts.maxWaitMs;
    while (!(await xactsEndedBefore({ db: this.db }, { xid })) && performance.now() < deadline)
      await sleep(10);
  }

  private async pump() {
    try {
      do {
        this.again = false;
        if (this.seq.needsXid(performance.now())) this.seq.pinXid(await currentXactId({ db: this.db }));
        const pinned = this.seq.pendingCheck();
        if (pinned && (await xactsEndedBefore({ db: this.db }, { xid: pinned })))
          this.seq.writersEnded(pinned);
        await this.deliverLate();
        const rows = await readEvents({ db: this.db }, { after: this.seq.cursor, limit: MAX_EVENT_PAGE });
        const step = this.seq.advance(rows, performance.now());
        if (step.deliver.length) {
          this.deliver(() => {
            for (const e of step.deliver) this.fanOut(e, false);
          });
          this.delivered(step.deliver);
        }
        if (step.forced.length)
          this.log.warn({ ids: step.forced.slice(0, 20), count: step.forced.length }, 'event ids skipped');
        if (step.waiting) this.retryLater(this.opts.retryMs);
        else if (rows.length === MAX_EVENT_PAGE) this.again = true;
      } while (this.again && !this.stopped);
    } catch (err) {
      if (this.stopped) return;
      this.log.warn({ err: (err as Error).message }, 'reading events failed');
      this.retryLater(Math.min(this.opts.pollMs, 500));
    }
  }

  private async deliverLate() {
    const ids = this.seq.watchedIds(performance.now());
    if (!ids.length) return;
    const found = await readEventsByIds({ db: this.db }, { ids });
    for (const e of found) {
      this.seq.found(e.id);
      this.log.warn({ id: e.id }, 'event committed after its gap was given up; delivered late');
      this.fanOut(e, true);
    }
    if (found.length) this.delivered(found);
  }

  private delivered(events: readonly EventEnvelope[]) {
    for (const observe of this.deliveryObservers) {
      try {
        observe(events);
      } catch (err) {
        this.log.warn({ err }, 'an event delivery observer failed');
      }
    }
  }

  private deliver(run: () => void) {
    if (this.opts.aroundDelivery) this.opts.aroundDelivery(run);
    else run();
  }

  private fanOut(e: EventEnvelope, late: boolean) {
    if (!late) this.cursor = e.id;
    for (const s of this.subs) s.push(e, late);
  }

  private retryLater(ms: number) {
    if (this.retry || this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.kick();
    }, ms);
    this.retry.unref();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
