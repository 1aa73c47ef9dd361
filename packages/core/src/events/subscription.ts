import type { EventEnvelope } from '../governance/event-log';
import { type EventFilter, matchesFilter } from './filter';
import type { ConnectionStreams, Release } from './limits';

/** What a live event source (the server's event bus) offers to one stream. */
export interface LiveEventSource {
  /** resolves once the source knows where the stored stream stands */
  ready(): Promise<void>;
  /** the last id delivered live: every stored event up to it is readable from the table */
  readonly cursor: number;
  /** how often an open stream should re-check its client's credential */
  readonly revalidateMs?: number;
  /** a subscription that closes itself when `signal` aborts */
  subscribe(filter: EventFilter, signal?: AbortSignal): EventSubscription;
  /**
   * takes a slot for one stream of this user (and of its connection), or throws TOO_MANY_REQUESTS
   * (docs/events.md, "Limits")
   */
  admit?(userId: string, connection?: ConnectionStreams): Release;
  /** bounds how many replays read the table at once */
  readonly replays?: { run<R>(task: () => Promise<R>): Promise<R> };
}

export type QueueItem =
  | { kind: 'event'; event: EventEnvelope; late: boolean }
  /** the subscriber fell too far behind: read the table up to `upTo`, then continue from the queue */
  | { kind: 'catchup'; upTo: number };

/**
 * One subscriber's queue of live events. It is bounded: a subscriber that falls more than `limit`
 * events behind loses its buffer and catches up from the table instead, so a slow client costs
 * memory for at most `limit` events and still misses nothing.
 */
export class EventSubscription {
  /** the source's cursor when this subscription started: live events all have greater ids */
  readonly startCursor: number;
  private buf: QueueItem[] = [];
  private head = 0;
  private overflowed = false;
  private closed = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly source: { readonly cursor: number },
    readonly filter: EventFilter,
    private readonly limit: number,
    private readonly onClose: (s: EventSubscription) => void,
  ) {
    this.startCursor = source.cursor;
  }

  push(event: EventEnvelope, late = false) {
    if (this.closed || !matchesFilter(event, this.filter)) return;
    if (this.overflowed) return;
    if (this.buf.length - this.head >= this.limit) {
      this.overflowed = true;
      this.buf = [];
      this.head = 0;
    } else {
      this.buf.push({ kind: 'event', event, late });
    }
    this.notify();
  }

  /** Closes this subscription when the signal aborts (bound once: listeners on signals are costly). */
  bind(signal: AbortSignal | undefined) {
    if (!signal) return this;
    if (signal.aborted) this.close();
    else signal.addEventListener('abort', () => this.close(), { once: true });
    return this;
  }

  /** The next item, or null once closed. */
  async next(): Promise<QueueItem | null> {
    for (;;) {
      if (this.closed) return null;
      if (this.overflowed) {
        this.overflowed = false;
        return { kind: 'catchup', upTo: this.source.cursor };
      }
      if (this.head < this.buf.length) {
        const item = this.buf[this.head++]!;
        if (this.head > 1024 && this.head * 2 > this.buf.length) {
          this.buf = this.buf.slice(this.head);
          this.head = 0;
        }
        return item;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.buf = [];
    this.notify();
    this.onClose(this);
  }

  private notify() {
    this.wake?.();
  }
}
