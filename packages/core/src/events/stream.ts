import type { EventEnvelope } from '../governance/event-log';
import type { Services } from '../services';
import { AppError } from '../shared/errors';
import { readEvents } from './feed';
import type { EventFilter } from './filter';
import type { Release } from './limits';
import type { LiveEventSource } from './subscription';

const REPLAY_PAGE = 100;

export interface StreamParams {
  filter: EventFilter;
  /** resume after this id: stored events after it are replayed first; absent = live events only */
  lastEventId?: number | null | undefined;
  signal?: AbortSignal | undefined;
  /** re-checks the client's credential while the stream is open: a revoked one ends it (UNAUTHORIZED) */
  revalidate?: { everyMs: number; check: () => Promise<boolean> } | undefined;
  /** turns the UNAUTHORIZED AppError of a revoked credential into the transport's error */
  mapError?: ((err: AppError) => Error) | undefined;
  /**
   * backpressure: undefined while the client has room, else a promise that resolves once it has (its
   * socket drained), awaited before each event is yielded (docs/events.md, "Limits")
   */
  pace?: ((signal?: AbortSignal) => Promise<void> | undefined) | undefined;
  /** called when the stream ends: gives back its slot (StreamAdmission) */
  release?: Release | undefined;
}

/**
 * One client's event stream: the stored events after its last id, then live ones, each once and in id
 * order. It subscribes before replaying, so nothing committed meanwhile falls between the two, and it
 * replays only up to the bus's cursor at that moment: everything after comes from the live queue.
 */
export async function* eventStream<T = EventEnvelope>(
  svc: Pick<Services, 'db'>,
  p: StreamParams & {
    /** the live events (the process's event bus) */
    source: LiveEventSource;
    /** maps each event to what is yielded (e.g. tRPC's tracked()), sparing the caller a generator layer */
    wrap?: ((e: EventEnvelope) => T) | undefined;
  },
): AsyncGenerator<T, void, undefined> {
  const { source, pace, signal } = p;
  const wrap = p.wrap ?? ((e: EventEnvelope) => e as T);
  // replays read the table through the source's gate: a bounded number at once per instance
  const read = (after: number, upTo: number) => {
    const page = async () =>
      signal?.aborted ? [] : readEvents(svc, { after, upTo, limit: REPLAY_PAGE, filter: p.filter });
    return source.replays ? source.replays.run(page) : page();
  };
  try {
    await source.ready();
  } catch (err) {
    p.release?.();
    throw err;
  }
  const sub = source.subscribe(p.filter, signal);
  let revoked = false;
  const timer = p.revalidate && setInterval(() => void recheck(), p.revalidate.everyMs);
  timer?.unref();
  async function recheck() {
    // a failed lookup (database down) keeps the stream: only a definite "no" ends it
    if (!(await p.revalidate!.check().catch(() => true))) {
      revoked = true;
      sub.close();
    }
  }
  // everything up to `position` has been sent (or did not match)
  let position = p.lastEventId ?? sub.startCursor;
  let upTo = sub.startCursor;
  try {
    for (;;) {
      while (position < upTo) {
        const page = await read(position, upTo);
        for (const e of page) {
          const room = pace?.(signal);
          if (room) await room;
          if (signal?.aborted) return;
          yield wrap(e);
          position = e.id;
        }
        if (page.length < REPLAY_PAGE) position = upTo;
      }
      const item = await sub.next();
      if (!item) {
        if (revoked) {
          const err = new AppError('UNAUTHORIZED', 'The session or access token is no longer valid', {
            reason: 'SESSION_ENDED',
          });
          throw p.mapError ? p.mapError(err) : err;
        }
        return;
      }
      if (item.kind === 'catchup') {
        upTo = Math.max(upTo, item.upTo);
        continue;
      }
      // ids at or below the position were replayed already; a late event (a gap given up on) is the
      // exception: it was never part of any replay bound that had passed it
      if (item.event.id <= position && !item.late) continue;
      const room = pace?.(signal);
      if (room) await room;
      if (signal?.aborted) return;
      yield wrap(item.event);
      position = Math.max(position, item.event.id);
    }
  } finally {
    if (timer) clearInterval(timer);
    sub.close();
    p.release?.();
  }
}
