import WebSocket from 'ws';
import type { TestApp } from './app';
import { until } from './events';

export interface RawAnswer {
  started: Set<number>;
  /** error bodies by subscription id */
  errors: Map<number, { message: string; data: { code: string; reason?: string } }>;
  /** the envelopes' ids received, by subscription id */
  events: Map<number, number[]>;
}

/**
 * A tRPC WebSocket spoken by hand (the wire format of @trpc/server's ws adapter), so that a test can send
 * many subscriptions at once, stop reading, or drop the socket without the client library's niceties.
 */
export async function rawTrpc(t: TestApp, token: string) {
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/trpc?connectionParams=1`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('error', () => {});
  ws.send(JSON.stringify({ method: 'connectionParams', data: { token } }));
  const answer: RawAnswer = { started: new Set(), errors: new Map(), events: new Map() };
  ws.on('message', (raw) => {
    const text = String(raw);
    if (text === 'PING') return ws.send('PONG');
    const m = JSON.parse(text) as {
      id: number;
      error?: RawAnswer['errors'] extends Map<number, infer E> ? E : never;
      result?: { type: string; data?: { data: { id: number } } };
    };
    if (m.error) answer.errors.set(m.id, m.error);
    else if (m.result?.type === 'started') answer.started.add(m.id);
    else if (m.result?.type === 'data') {
      const list = answer.events.get(m.id) ?? [];
      list.push(m.result.data!.data.id);
      answer.events.set(m.id, list);
    }
  });
  let nextId = 1;
  return {
    ws,
    answer,
    /** sends `n` events.stream subscriptions in one go; returns their ids */
    subscribe(n: number, input: Record<string, unknown> = {}): number[] {
      const ids = Array.from({ length: n }, () => nextId++);
      for (const id of ids)
        ws.send(JSON.stringify({ id, method: 'subscription', params: { path: 'events.stream', input } }));
      return ids;
    },
    stop(id: number) {
      ws.send(JSON.stringify({ id, method: 'subscription.stop' }));
    },
    /** waits until every one of `ids` was started or refused */
    answered(ids: number[], timeoutMs = 30_000) {
      return until(
        () => ids.every((id) => answer.started.has(id) || answer.errors.has(id)),
        `answers to ${ids.length} subscriptions`,
        timeoutMs,
      );
    },
    /** a network failure: the socket is destroyed without a closing handshake */
    drop() {
      ws.terminate();
    },
  };
}

export type RawTrpc = Awaited<ReturnType<typeof rawTrpc>>;
