// N tRPC WebSocket subscribers of one proposal on their own thread, recording when each vote_cast
// arrives. Plain JavaScript: worker threads do not inherit tsx's loader.
// Input (workerData): { wsUrl, token, input, count }
// Messages out: { type: 'ready' } once every subscription started; { type: 'receipts', received,
// receipts: { [voteId]: number[] (epoch ms) }, errors } after a { type: 'collect', expected } message.
import { parentPort, workerData } from 'node:worker_threads';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';

const { wsUrl, token, input, count } = workerData;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const receipts = new Map();
const errors = [];
let received = 0;
let started = 0;
const clients = [];

for (let i = 0; i < count; i++) {
  const wsClient = createWSClient({
    url: wsUrl,
    WebSocket,
    connectionParams: { token },
    retryDelayMs: () => 1000,
  });
  const client = createTRPCClient({ links: [wsLink({ client: wsClient })] });
  const sub = client.events.stream.subscribe(input, {
    onStarted() {
      if (++started === count) parentPort.postMessage({ type: 'ready' });
    },
    onData({ data }) {
      const at = now();
      const voteId = data.data.vote.voteId;
      const list = receipts.get(voteId);
      if (list) list.push(at);
      else receipts.set(voteId, [at]);
      received++;
    },
    onError(err) {
      errors.push(String(err));
    },
  });
  clients.push({ wsClient, sub });
  if (i % 50 === 49) await sleep(10); // do not open a thousand sockets in one burst
}

parentPort.on('message', async (m) => {
  if (m.type !== 'collect') return;
  const deadline = Date.now() + 30_000;
  while (received < m.expected && Date.now() < deadline) await sleep(20);
  for (const c of clients) {
    c.sub.unsubscribe();
    await c.wsClient.close();
  }
  parentPort.postMessage({
    type: 'receipts',
    received,
    receipts: Object.fromEntries(receipts),
    errors: errors.slice(0, 5),
  });
});
