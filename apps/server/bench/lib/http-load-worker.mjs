// A load generator on its own thread (and core), so the server's event loop is not shared with the
// client. Plain JavaScript: worker threads do not inherit tsx's loader.
// Input (workerData): { baseUrl, requests: [{ method, path, body?, token? }], concurrency }
// Output (message): { elapsedMs, statuses: { [status]: count }, latencies: number[] (ms, sorted) }
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { baseUrl, requests, concurrency } = workerData;
const url = new URL(baseUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function send(r) {
  return new Promise((resolve) => {
    const headers = {};
    if (r.token) headers.authorization = `Bearer ${r.token}`;
    if (r.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(r.body);
    }
    const started = performance.now();
    const req = http.request(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

const statuses = {};
const latencies = new Array(requests.length);
let next = 0;
const started = performance.now();
async function lane() {
  while (next < requests.length) {
    const i = next++;
    const { status, ms } = await send(requests[i]);
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies[i] = ms;
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
const elapsedMs = performance.now() - started;
agent.destroy();
parentPort.postMessage({ elapsedMs, statuses, latencies: latencies.sort((a, b) => a - b) });
