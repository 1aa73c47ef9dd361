// Webhook receivers for the votes-webhooks bench (bench/suites/votes-webhooks.ts), in their own process so
// their work does not share the load client's event loop: N plain HTTP endpoints on loopback that answer
// 204 to every POST and count what they got (total, per endpoint, distinct webhook-id headers), and a
// control endpoint: GET /count → { total, distinct, perEndpoint }. Prints its URLs as one JSON line.
import { createServer } from 'node:http';

const n = Number(process.argv[2] ?? 10);
const perEndpoint = new Array(n).fill(0);
const ids = new Set();
const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

const endpoints = [];
for (let i = 0; i < n; i++) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      perEndpoint[i]++;
      ids.add(req.headers['webhook-id']);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  endpoints.push(`http://127.0.0.1:${await listen(server)}/hook`);
}
const control = createServer((_req, res) => {
  const total = perEndpoint.reduce((a, b) => a + b, 0);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ total, distinct: ids.size, perEndpoint }));
});
const controlUrl = `http://127.0.0.1:${await listen(control)}`;
process.stdout.write(`${JSON.stringify({ endpoints, control: controlUrl })}\n`);
