import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './support/app';
import { memberUser, type TestUser } from './support/factories';
import { apiClient } from './support/http';
import { tinyPng } from './support/images';
import { type ServerProcess, startServerProcess } from './support/server-process';

/**
 * No request, however malformed, stops the process (docs/api.md, "Errors"). The server runs as a real
 * child process; each malformed request goes over a raw socket, exactly as a hostile client would send
 * it, and afterwards the same process must still answer.
 */
let server: ServerProcess;
let user: TestUser;
let dropDb: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabase();
  dropDb = db.drop;
  server = await startServerProcess({ DATABASE_URL: db.url });
  user = await memberUser(apiClient(server.url));
});
afterAll(async () => {
  await server?.stop();
  await dropDb?.();
});

interface RawAnswer {
  status: number | null;
  text: string;
}

/**
 * Sends `head` and `body` as they are (no framing added) and reads until the server closes or answers
 * completely; `abortAfterBody` closes the socket right after sending, as a client that goes away.
 */
function raw(head: string, body: Buffer | string, opts: { abortAfterBody?: boolean } = {}) {
  return new Promise<RawAnswer>((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : null, text });
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // one complete answer is enough: a JSON error body is short and sent with Content-Length
      const text = Buffer.concat(chunks).toString('utf8');
      const len = /content-length: (\d+)/i.exec(text);
      const sep = text.indexOf('\r\n\r\n');
      if (len && sep >= 0 && Buffer.byteLength(text.slice(sep + 4)) >= Number(len[1])) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', done);
    socket.write(head);
    socket.write(body, () => {
      if (opts.abortAfterBody) socket.destroy();
    });
  });
}

const B = 'plenumBoundary7MA4YWxkTrZu0gW';

function multipart(field: string, filename: string, content: Buffer | string, opts: { close?: boolean }) {
  const parts = [
    Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
  ];
  if (opts.close !== false) parts.push(Buffer.from(`\r\n--${B}--\r\n`));
  return Buffer.concat(parts);
}

function head(method: string, path: string, body: Buffer, extra: Record<string, string> = {}) {
  const headers = {
    Host: `127.0.0.1:${server.port}`,
    Authorization: `Bearer ${user.token}`,
    'Content-Type': `multipart/form-data; boundary=${B}`,
    'Content-Length': String(body.length),
    Connection: 'close',
    ...extra,
  };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

async function expectStillServing() {
  expect(server.alive(), server.stderr()).toBe(true);
  const res = await fetch(`${server.url}/health`);
  expect(res.status).toBe(200);
  expect(server.alive(), server.stderr()).toBe(true);
}

const text = Buffer.from('hello, plenum\n'.repeat(100));
const avatarPath = () => `/users/${user.id}/avatar`;

describe('malformed multipart bodies get a 400 and the process keeps running', () => {
  const cases: [string, () => string, Buffer][] = [
    [
      'an avatar that ends before its closing boundary',
      avatarPath,
      multipart('avatar', 'a.png', tinyPng(), { close: false }),
    ],
    ['an avatar in a field of another name', avatarPath, multipart('file', 'a.png', tinyPng(), {})],
    [
      'an avatar in a field of another name, truncated',
      avatarPath,
      multipart('picture', 'a.png', tinyPng(), { close: false }),
    ],
    [
      'an upload that ends before its closing boundary',
      () => '/ipfs/upload',
      multipart('file', 'a.txt', text, { close: false }),
    ],
    ['an upload in a field of another name', () => '/ipfs/upload', multipart('upload', 'a.txt', text, {})],
    [
      'an upload in a field of another name, truncated',
      () => '/ipfs/upload',
      multipart('upload', 'a.txt', text, { close: false }),
    ],
    [
      'an upload with a second, truncated file part',
      () => '/ipfs/upload',
      Buffer.concat([
        multipart('other', 'b.txt', text, { close: false }),
        Buffer.from('\r\n'),
        multipart('file', 'a.txt', text, { close: false }),
      ]),
    ],
    [
      'an upload cut inside the part headers',
      () => '/ipfs/upload',
      Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filena`),
    ],
    ['a body of only a boundary', () => '/ipfs/upload', Buffer.from(`--${B}`)],
  ];

  for (const [name, path, body] of cases) {
    it(name, async () => {
      const answer = await raw(head('PUT', path(), body).replace(/^PUT \/ipfs/, 'POST /ipfs'), body);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
      await expectStillServing();
    });
  }

  it('a multipart content type without a boundary', async () => {
    const body = multipart('file', 'a.txt', text, {});
    const answer = await raw(
      head('POST', '/ipfs/upload', body, { 'Content-Type': 'multipart/form-data' }),
      body,
    );
    expect(answer.status, answer.text).toBe(400);
    await expectStillServing();
  });
});

describe('clients that go away mid-body do not stop the process', () => {
  const sizes = { avatar: 200_000, upload: 2_000_000, json: 50_000 };
  it('an avatar upload whose client disconnects', async () => {
    const body = multipart('avatar', 'a.png', Buffer.concat([tinyPng(), Buffer.alloc(sizes.avatar)]), {});
    const partial = body.subarray(0, body.length / 2);
    await raw(head('PUT', avatarPath(), body), partial, { abortAfterBody: true });
    await expectStillServing();
  });

  it('a file upload whose client disconnects', async () => {
    const body = multipart('file', 'a.txt', Buffer.alloc(sizes.upload, 'a'), {});
    await raw(head('POST', '/ipfs/upload', body), body.subarray(0, body.length / 2), {
      abortAfterBody: true,
    });
    await expectStillServing();
  });

  it('JSON bodies that stop early, on REST, tRPC and the Pinning Service API', async () => {
    const json = Buffer.from(JSON.stringify({ name: 'x'.repeat(sizes.json) }));
    for (const path of ['/daos', '/trpc/governance.createDao', '/pins', '/auth/login']) {
      await raw(
        head('POST', path, json, { 'Content-Type': 'application/json' }),
        json.subarray(0, json.length / 2),
        { abortAfterBody: true },
      );
    }
    await expectStillServing();
  });

  it('a chunked body with a broken chunk', async () => {
    const h = `POST /daos HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const answer = await raw(h, 'zz\r\n{"name":\r\n0\r\n\r\n');
    expect(answer.status).toBe(400);
    await expectStillServing();
  });

  it('WebSocket and Socket.IO upgrades with garbage', async () => {
    const upgrade = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    for (const path of ['/trpc', '/socket.io/?EIO=4&transport=websocket', '/elsewhere']) {
      // an unmasked, oversized frame header followed by a disconnect
      await raw(upgrade(path), Buffer.from([0x81, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), {
        abortAfterBody: true,
      });
    }
    await expectStillServing();
  });
});
