import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Slow and greedy clients (docs/operations.md, "Slow clients"). Node's headersTimeout bounds the request
 * line and headers (set in app/fastify.ts); here, after the headers:
 *
 * - a small body (JSON, a form, text, none declared) must arrive whole within `bodyTimeoutMs` of them;
 * - any other body is a streamed upload, which may take long but must keep moving: every `rateWindowMs`
 *   it must bring at least `minRate` bytes per second on average;
 *
 * a request that breaks its rule is answered 408 (code TIMEOUT, reason BODY_TIMEOUT) and its connection
 * closed. And one socket address holds at most `maxPerIp` connections at once: one more is answered 429
 * (reason TOO_MANY_CONNECTIONS) and closed before any of its requests is read.
 */
export interface SlowClientLimits {
  bodyTimeoutMs: number;
  rateWindowMs: number;
  minRate: number;
  /** 0 = no cap */
  maxPerIp: number;
}

/** bodies read whole before a handler runs, whose size MAX_JSON_BODY caps */
const SMALL_BODY = /^\s*(application\/([\w.-]+\+)?json|application\/x-www-form-urlencoded|text\/)/i;

/** a raw answer written before (or instead of) the app's, closing the connection */
function rawAnswer(status: number, text: string, body: Record<string, string>, extra = '') {
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n${extra}\r\n${json}`
  );
}

/** the refused request's answer, then its connection closed (after a moment, so the answer can leave) */
function cut(req: IncomingMessage, res: ServerResponse, message: string) {
  const socket = req.socket;
  if (!res.headersSent && !socket.destroyed) {
    const body = { code: 'TIMEOUT', reason: 'BODY_TIMEOUT', message };
    res.writeHead(408, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
    res.end(JSON.stringify(body));
    setTimeout(() => socket.destroy(), 1_000).unref();
  } else socket.destroy();
}

function hasBody(req: IncomingMessage) {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function guardSlowClients(server: Server, limits: SlowClientLimits) {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!hasBody(req) || req.complete) return;
    let timer: NodeJS.Timeout;
    if (SMALL_BODY.test(req.headers['content-type'] ?? 'text/')) {
      timer = setTimeout(() => {
        if (!req.complete) cut(req, res, 'The request body did not arrive in time');
      }, limits.bodyTimeoutMs);
    } else {
      // the socket's byte count: the HTTP parser reads the socket directly, so no 'data' listener is needed
      let seen = req.socket.bytesRead;
      const least = (limits.minRate * limits.rateWindowMs) / 1000;
      timer = setInterval(() => {
        const now = req.socket.bytesRead;
        if (!req.complete && now - seen < least) cut(req, res, 'The upload is too slow');
        seen = now;
      }, limits.rateWindowMs);
    }
    timer.unref();
    const done = () => clearTimeout(timer);
    req.once('end', done);
    req.once('close', done);
    res.once('close', done);
  });

  if (limits.maxPerIp > 0) capConnectionsPerIp(server, limits.maxPerIp);
}

/**
 * Counts open connections by the socket's remote address (never a forwarded header: a client cannot
 * choose it). Node's own connection listener (the HTTP parser) runs only for connections within the cap,
 * so a refused one never reaches the app.
 */
function capConnectionsPerIp(server: Server, max: number) {
  const open = new Map<string, number>();
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const n = open.get(ip) ?? 0;
    if (n >= max) {
      socket.on('error', () => {});
      socket.end(
        rawAnswer(
          429,
          'Too Many Requests',
          {
            code: 'TOO_MANY_REQUESTS',
            reason: 'TOO_MANY_CONNECTIONS',
            message: `At most ${max} connections at once from one address`,
          },
          'Retry-After: 1\r\n',
        ),
      );
      // a client that keeps sending after the answer is not read: closed once the answer is out
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    open.set(ip, n + 1);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left) open.set(ip, left);
      else open.delete(ip);
    });
    for (const listener of listeners) listener.call(server, socket);
  });
}
