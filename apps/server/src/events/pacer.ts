import type { Duplex } from 'node:stream';
import { ConnectionStreams, type StreamConnection } from '@plenum/core';
import type { WebSocket } from 'ws';

/** how often a waiting stream looks again when no 'drain' comes (a write that never filled the socket) */
const RECHECK_MS = 100;

/**
 * Backpressure for the streams of one tRPC WebSocket (docs/events.md, "Limits"). @trpc/server's ws
 * adapter sends each value as soon as the generator yields it and never looks at the socket, so a
 * client that reads slowly (or not at all) would have every replayed event buffered in this process.
 * Each stream awaits `ready()` before it yields: while more than `maxBuffered` bytes wait to be sent,
 * it waits for the socket to drain. One set of listeners per connection, however many streams wait.
 */
export class SocketPacer {
  private readonly waiters = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly maxBuffered: number,
    /** counts the streams waiting (diagnostics and tests) */
    private readonly waiting: { streamsWaitingForClients: number },
  ) {
    // the raw socket's 'drain' (ws has none of its own)
    (ws as unknown as { _socket?: Duplex })._socket?.on('drain', this.check);
    ws.once('close', this.wakeAll);
  }

  /** undefined when there is room, else a promise that resolves once there is (or the stream ends) */
  readonly ready = (signal?: AbortSignal): Promise<void> | undefined => {
    if (!this.full() || signal?.aborted) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        this.waiting.streamsWaitingForClients--;
        resolve();
      };
      this.waiters.add(done);
      this.waiting.streamsWaitingForClients++;
      signal?.addEventListener('abort', done, { once: true });
      this.arm();
    });
  };

  private full() {
    return this.ws.readyState === this.ws.OPEN && this.ws.bufferedAmount > this.maxBuffered;
  }

  private readonly check = () => {
    if (!this.waiters.size) return;
    if (this.full()) this.arm();
    else this.wakeAll();
  };

  private arm() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.check();
    }, RECHECK_MS);
    this.timer.unref();
  }

  private readonly wakeAll = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const done of [...this.waiters]) done();
  };
}

/**
 * The stream limits of one tRPC WebSocket: its subscription slots (all given back when it closes, however
 * it closes) and its backpressure.
 */
export function streamConnection(
  ws: WebSocket,
  o: { perConnection: number; maxBuffered: number; waiting: { streamsWaitingForClients: number } },
): StreamConnection {
  const streams = new ConnectionStreams(o.perConnection);
  if (ws.readyState === ws.CLOSING || ws.readyState === ws.CLOSED) streams.close();
  else ws.once('close', () => streams.close());
  return { streams, pace: new SocketPacer(ws, o.maxBuffered, o.waiting).ready };
}
