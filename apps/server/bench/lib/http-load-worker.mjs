// A load generator on its own thread (and core), so the server's event loop is not shared with the
// client. Plain JavaScript: worker threads do not inherit tsx's loader.
// Input (workerData): { baseUrl, requests: [{ method, path, body?, token? }], concurrency }
// Output (message): { elapsedMs, statuses: { [status]: count }, latencies: number[] (ms, sorted) }
//
// HTTP/1.1 over plain keep-alive sockets, one request at a time per socket (no pipelining), requests
// serialized up front and responses read with a minimal parser (status line, Content-Length or chunked).
// Node's http client spent a third of a core at 2,500 requests/s here; on a 2-core machine whatever
// the client burns is taken from the server and PostgreSQL, so the client is kept as light as it can be
// (the way dedicated load tools such as wrk or autocannon are).
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { baseUrl, requests, concurrency } = workerData;
const url = new URL(baseUrl);
const host = url.hostname;
const port = Number(url.port);

function serialize(r) {
  let head = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  if (r.token) head += `authorization: Bearer ${r.token}\r\n`;
  const body = r.body === undefined ? null : Buffer.from(r.body);
  if (body) head += `content-type: application/json\r\ncontent-length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

/** one keep-alive connection; send() resolves with { status } once the whole response was read */
function connection() {
  let socket = null;
  let buf = Buffer.alloc(0);
  let waiting = null;

  const fail = (err) => {
    socket = null;
    buf = Buffer.alloc(0);
    if (waiting) {
      const w = waiting;
      waiting = null;
      w.resolve({ status: 0, error: err });
    }
  };

  const parse = () => {
    if (!waiting) return;
    const end = buf.indexOf(HEADER_END);
    if (end < 0) return;
    const head = buf.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const bodyStart = end + 4;
    let total;
    const cl = /\r\ncontent-length: *(\d+)/.exec(lower);
    if (cl) total = bodyStart + Number(cl[1]);
    else if (lower.includes('\r\ntransfer-encoding: chunked')) {
      const last = buf.indexOf(CHUNKED_END, bodyStart);
      if (last < 0) return;
      total = last + CHUNKED_END.length;
    } else total = bodyStart;
    if (buf.length < total) return;
    buf = buf.subarray(total);
    const close = lower.includes('\r\nconnection: close');
    const w = waiting;
    waiting = null;
    if (close) {
      socket?.destroy();
      socket = null;
      buf = Buffer.alloc(0);
    }
    w.resolve({ status });
  };

  const open = () => {
    const s = net.connect({ host, port, noDelay: true });
    s.on('data', (d) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      parse();
    });
    s.on('error', fail);
    s.on('close', () => {
      if (socket === s) fail(new Error('connection closed'));
    });
    return s;
  };

  return {
    send(bytes) {
      return new Promise((resolve) => {
        waiting = { resolve };
        socket ??= open();
        socket.write(bytes);
      });
    },
    close() {
      socket?.destroy();
    },
  };
}

const wire = requests.map(serialize);
const statuses = {};
const latencies = new Array(requests.length);
let next = 0;
const started = performance.now();
const connections = [];
async function lane() {
  const c = connection();
  connections.push(c);
  while (next < wire.length) {
    const i = next++;
    const t0 = performance.now();
    const { status } = await c.send(wire[i]);
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies[i] = performance.now() - t0;
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
const elapsedMs = performance.now() - started;
for (const c of connections) c.close();
parentPort.postMessage({ elapsedMs, statuses, latencies: latencies.sort((a, b) => a - b) });
