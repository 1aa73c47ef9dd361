import { randomUUID } from 'node:crypto';
import type { AppRouter } from '@plenum/api';
import {
  appendEvents,
  type EventEnvelope,
  hashToken,
  type NewEvent,
  newToken,
  PAT_PREFIX,
} from '@plenum/core';
import { accessTokens } from '@plenum/db';
import type { EventSubscriptionInput } from '@plenum/validators';
import { createTRPCClient, createWSClient, type TRPCClientError, wsLink } from '@trpc/client';
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { TestApp } from './app';

export const EVENT_NAMES = [
  'dao_created',
  'proposal_submitted',
  'vote_cast',
  'proposal_status_changed',
] as const;

export const newId = () => randomUUID();

/** Appends events in one transaction of the given app (as the governance domain does). */
export async function append(t: TestApp, items: NewEvent[]): Promise<EventEnvelope[]> {
  return t.app.svc.db.transaction((tx) => appendEvents(tx, { items }));
}

export const vote = (daoId: string, proposalId: string, n = 0): NewEvent => ({
  type: 'vote_cast',
  daoId,
  proposalId,
  data: { vote: { n }, results: {} },
});

/** A personal access token for a user, written straight to the table (the token routes are elsewhere). */
export async function personalToken(t: TestApp, userId: string): Promise<string> {
  const token = newToken(PAT_PREFIX);
  await t.app.svc.db
    .insert(accessTokens)
    .values({ userId, name: 'events test', tokenHash: hashToken(token), prefix: token.slice(0, 8) });
  return token;
}

export async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until this app's bus has n live subscriptions with this filter field (live from then on). */
export function subscribed(t: TestApp, match: Partial<Record<'daoId' | 'proposalId', string>>, n = 1) {
  const bus = t.app.events;
  const matches = () =>
    bus.subscriptions.filter((f) => Object.entries(match).every(([k, v]) => f[k as keyof typeof match] === v))
      .length;
  return until(() => matches() >= n, `${n} subscriptions to ${JSON.stringify(match)}`);
}

export interface Received {
  events: EventEnvelope[];
  errors: unknown[];
  /** resolves with the first n events received */
  waitFor(n: number, timeoutMs?: number): Promise<EventEnvelope[]>;
  close(): void;
}

function collector(close: () => void): Received {
  const r: Received = {
    events: [],
    errors: [],
    async waitFor(n, timeoutMs) {
      await until(() => r.events.length >= n || r.errors.length > 0, `${n} events`, timeoutMs);
      if (r.events.length < n) throw new Error(`subscription failed: ${String(r.errors[0])}`);
      return r.events.slice(0, n);
    },
    close,
  };
  return r;
}

export interface TrpcOptions {
  /** reconnect delay of the tRPC client; default: never within a test */
  retryDelayMs?: number;
}

/** A tRPC WebSocket subscriber of `events.stream`, as the web app connects. */
export function trpcSubscriber(
  t: TestApp,
  token: string,
  input: EventSubscriptionInput = {},
  o: TrpcOptions = {},
) {
  const wsClient = createWSClient({
    url: `${t.url.replace('http', 'ws')}/trpc`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: { token },
    retryDelayMs: () => o.retryDelayMs ?? 60_000,
    onClose: (e) => closes.push(e?.code),
  });
  const closes: (number | undefined)[] = [];
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
  let lastId: string | undefined;
  const sub = client.events.stream.subscribe(input, {
    onData(d) {
      lastId = d.id;
      r.events.push(d.data as EventEnvelope);
    },
    onError(err: TRPCClientError<AppRouter>) {
      r.errors.push(err);
    },
  });
  const r = collector(() => {
    sub.unsubscribe();
    void wsClient.close();
  });
  return Object.assign(r, {
    wsClient,
    closes,
    lastId: () => lastId,
    /** drops the socket as a network failure would; the client reconnects by itself */
    dropConnection: () => (wsClient.connection?.ws as WebSocket | undefined)?.close(),
  });
}

/** A Socket.IO subscriber with the documented handshake (docs/events.md, "Socket.IO"). */
export function socketSubscriber(
  t: TestApp,
  auth: { token?: string } | undefined,
  query: Record<string, string> = {},
) {
  const socket: Socket = io(t.url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    ...(auth ? { auth } : {}),
    query,
  });
  const r = collector(() => socket.close());
  const argCounts: number[] = [];
  socket.onAny((name: string, ...args: unknown[]) => {
    argCounts.push(args.length);
    const e = args[0] as EventEnvelope;
    if (e.type !== name) r.errors.push(new Error(`event ${name} carried type ${e.type}`));
    r.events.push(e);
  });
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => {
      r.errors.push(err);
      reject(err);
    });
  });
  connected.catch(() => {});
  return Object.assign(r, { socket, connected, argCounts });
}

export const idsOf = (events: { id: number }[]) => events.map((e) => e.id);
