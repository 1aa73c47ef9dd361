import type { Server as HttpServer } from 'node:http';
import { type ApiServices, scopeRefusal, zodIssuesToFieldIssues } from '@plenum/api';
import {
  AppError,
  type ErrorCode,
  eventStream,
  type FieldIssue,
  type LiveEventSource,
  resolveToken,
} from '@plenum/core';
import { type Detail, type Reason, socketEventQuery } from '@plenum/validators';
import { Server, type Socket } from 'socket.io';
import type { Authenticate, Authentication } from '../http/authenticate';

export interface SocketIoOptions {
  svc: ApiServices;
  bus: LiveEventSource;
  corsOrigins: string[];
  /** who connects (http/authenticate.ts) */
  authenticate: Authenticate;
}

type Subscription = ReturnType<typeof socketEventQuery.parse>;

/** Socket.IO's connect_error: `message` plus `data` in the one error body (docs/events.md, "Socket.IO"). */
function refusal(code: ErrorCode, message: string, reason: Reason, issues?: FieldIssue[], detail?: Detail) {
  return Object.assign(new Error(message), {
    data: { code, reason, ...(detail ? { detail } : {}), message, ...(issues ? { issues } : {}) },
  });
}

/** Socket.IO's answer to each refusal of the authentication (docs/events.md, "Socket.IO") */
const REFUSALS = {
  CSRF: () => refusal('FORBIDDEN', 'Cross-origin connection with the session cookie refused', 'CSRF'),
  TOKEN_REQUIRED: () =>
    refusal('UNAUTHORIZED', 'Connect with auth: { token } (a session or access token)', 'TOKEN_REQUIRED'),
  INVALID_TOKEN: () => refusal('UNAUTHORIZED', 'The token is invalid, expired or revoked', 'INVALID_TOKEN'),
  DATABASE_UNAVAILABLE: () =>
    refusal('SERVICE_UNAVAILABLE', 'The database is unreachable', 'DATABASE_UNAVAILABLE'),
} satisfies Record<Exclude<Authentication, { ok: true }>['reason'], () => Error>;

/**
 * The Socket.IO endpoint at /socket.io (docs/events.md, "Socket.IO"): handshake `auth: { token }` (a
 * session or personal access token), resume point and filters in the handshake query, one event per
 * event type with the envelope as its one data argument.
 */
export function attachSocketIo(
  server: HttpServer,
  { svc, bus, corsOrigins, authenticate }: SocketIoOptions,
): Server {
  const io = new Server(server, {
    path: '/socket.io',
    // the tRPC WebSocket server shares this HTTP server: leave upgrades to other paths alone
    destroyUpgrade: false,
    serveClient: false,
    maxHttpBufferSize: 16_384, // clients only listen
    cors: { origin: corsOrigins, credentials: true },
  });

  io.use(async (socket, next) => {
    const given = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const auth = await authenticate(socket.request, { given, stream: true });
    if (!auth.ok) return next(REFUSALS[auth.reason]());
    // events are reads: an access token needs its `read` scope (docs/accounts.md, "Token scopes")
    const unscoped = scopeRefusal(auth.principal, 'read');
    if (unscoped)
      return next(refusal('FORBIDDEN', unscoped.message, 'INSUFFICIENT_SCOPE', undefined, 'read'));
    const { token } = auth;
    const userId = auth.principal.userId;
    const parsed = socketEventQuery.safeParse(socket.handshake.query);
    if (!parsed.success) {
      const issues = zodIssuesToFieldIssues(parsed.error.issues);
      const detail = issues.map((i) => `${i.path || 'query'}: ${i.message}`).join('; ');
      return next(refusal('BAD_REQUEST', `Invalid subscription: ${detail}`, 'VALIDATION_FAILED', issues));
    }
    // one stream of the user's budget (docs/events.md, "Limits"), given back when the transport closes:
    // Socket.IO emits no 'disconnect' for a socket whose client left while this middleware ran
    try {
      const release = bus.admit?.(userId);
      if (release) {
        if (socket.conn.readyState === 'closed') release();
        else socket.conn.once('close', release);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return next(refusal(err.code, err.message, err.reason ?? 'TOO_MANY_SUBSCRIPTIONS'));
    }
    socket.data.subscription = parsed.data;
    socket.data.token = token;
    next();
  });

  io.on('connection', (socket) => {
    void pipe(socket, socket.data.subscription as Subscription);
  });

  async function pipe(socket: Socket, sub: Subscription) {
    const ac = new AbortController();
    socket.once('disconnect', () => ac.abort());
    const filter = { events: sub.events, daoId: sub.daoId, proposalId: sub.proposalId };
    try {
      const token = socket.data.token as string;
      const revalidate = {
        everyMs: bus.revalidateMs ?? 60_000,
        check: async () => (await resolveToken(svc, { token })) !== null,
      };
      const stream = eventStream(svc, {
        source: bus,
        filter,
        lastEventId: sub.lastEventId,
        signal: ac.signal,
        revalidate,
      });
      for await (const e of stream) {
        socket.emit(e.type, e);
        // a slow client: let its socket drain instead of buffering a whole replay in memory
        if (buffered(socket) > 256) await drained(socket, ac.signal);
      }
    } catch (err) {
      if ((err as { code?: string }).code !== 'UNAUTHORIZED')
        svc.log.warn({ err: (err as Error).message }, 'socket.io event stream failed');
      socket.disconnect(true);
    }
  }

  return io;
}

// engine.io keeps unsent packets in `writeBuffer` (typed private; there is no public size): docs/internals.md,
// "engine.io's writeBuffer"; exported for its canary (test/library-internals.test.ts)
export const buffered = (socket: Socket) =>
  (socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length;

function drained(socket: Socket, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.conn.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    socket.conn.on('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Ends every Socket.IO connection without closing the shared HTTP server. */
export async function closeSocketIo(io: Server) {
  io.disconnectSockets(true);
  io.engine.close();
}
