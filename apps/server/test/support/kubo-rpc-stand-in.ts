import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarBlockIterator } from '@ipld/car';
import { createEmbeddedNode, type NodeProvider, parseCid } from '@plenum/core';
import busboy from 'busboy';
import type { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';
import { sha256 } from 'multiformats/hashes/sha2';

/**
 * STAND-IN for a Kubo node: no Kubo binary can be installed here, so this small HTTP server answers
 * the Kubo RPC calls Plenum's kubo-rpc-client provider makes (add, also of several files with
 * wrap-with-directory, cat, pin/add, pin/rm, pin/ls, version, id, routing/provide, swarm/connect,
 * dag/import, block/get, files/stat, ls) in Kubo's wire format, backed by an embedded Helia node. It checks
 * our use of kubo-rpc-client and the HTTP API, not Kubo itself.
 */
export interface KuboStandIn {
  url: string;
  calls: string[];
  /** the multiaddrs `swarm/connect` was asked for, in order */
  dialled: string[];
  node: NodeProvider;
  /** the roots named in the headers of the CARs `dag/import` took, in order */
  imported: CID[];
  /** stops answering: connections are refused until `up()`, as when the node is down */
  down(): Promise<void>;
  /** answers again, on the same port */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** a block's bytes against its CID (sha2-256 or identity, what Plenum writes), or an error */
async function checkBlock(cid: CID, bytes: Uint8Array) {
  const code = cid.multihash.code;
  const hasher = code === sha256.code ? sha256 : code === identity.code ? identity : null;
  if (!hasher) throw new Error(`unsupported multihash 0x${code.toString(16)} in ${cid}`);
  const digest = (await hasher.digest(bytes)).digest;
  const want = cid.multihash.digest;
  if (digest.length !== want.length || digest.some((b, i) => b !== want[i]))
    throw new Error(`block ${cid} does not match its hash`);
}

const PEER_ID = '12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf';

export async function startKuboStandIn(dir: string): Promise<KuboStandIn> {
  const node = await createEmbeddedNode({ dir: dir, timeoutMs: 30_000, swarm: null });
  const calls: string[] = [];
  const dialled: string[] = [];
  const imported: CID[] = [];
  const fail = (res: import('node:http').ServerResponse, message: string) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ Message: message, Code: 0, Type: 'error' }));
  };
  const json = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const cmd = url.pathname.replace(/^\/api\/v0\//, '');
    calls.push(cmd);
    const arg = url.searchParams.get('arg') ?? '';
    try {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      switch (cmd) {
        case 'add': {
          // one file, or several with wrap-with-directory (their paths URI-encoded in the filenames)
          const parts: { path: string; bytes: Buffer }[] = [];
          const bb = busboy({ headers: req.headers, preservePath: true });
          bb.on('file', (_name, stream, info) => {
            const chunks: Buffer[] = [];
            stream.on('data', (c: Buffer) => chunks.push(c));
            stream.on('end', () => {
              if (info.mimeType !== 'application/x-directory')
                parts.push({ path: decodeURIComponent(info.filename ?? ''), bytes: Buffer.concat(chunks) });
            });
          });
          bb.on('close', async () => {
            try {
              res.writeHead(200, { 'content-type': 'application/x-ndjson' });
              if (url.searchParams.get('wrap-with-directory') === 'true') {
                const dir = await node.addDirectory(
                  parts.map((p) => ({
                    path: p.path,
                    content: async function* () {
                      yield p.bytes;
                    },
                  })),
                );
                for (const [path, cid] of dir.files)
                  res.write(`${JSON.stringify({ Name: path, Hash: cid.toString(), Size: '0' })}\n`);
                return void res.end(`${JSON.stringify({ Name: '', Hash: dir.cid.toString(), Size: '0' })}\n`);
              }
              const [one] = parts;
              const cid = await node.add(
                (async function* () {
                  yield one!.bytes;
                })(),
              );
              res.end(
                `${JSON.stringify({ Name: one!.path || cid.toString(), Hash: cid.toString(), Size: '0' })}\n`,
              );
            } catch (err) {
              res.end(`${JSON.stringify({ Message: (err as Error).message, Type: 'error' })}\n`);
            }
          });
          req.pipe(bb);
          return;
        }
        case 'dag/import': {
          // Kubo's answer: one Root line per root named in a CAR header when pin-roots (its default) is
          // on, pinned recursively; nothing with pin-roots=false; a Stats line with stats=true
          const pinRoots = url.searchParams.get('pin-roots') !== 'false';
          const cars: Promise<Buffer>[] = [];
          const bb = busboy({ headers: req.headers });
          bb.on('file', (_name, stream) => {
            cars.push(
              new Promise((resolve, reject) => {
                const chunks: Buffer[] = [];
                stream.on('data', (c: Buffer) => chunks.push(c));
                stream.once('error', reject);
                stream.once('end', () => resolve(Buffer.concat(chunks)));
              }),
            );
          });
          bb.on('close', async () => {
            try {
              const roots: CID[] = [];
              let blockCount = 0;
              let blockBytes = 0;
              for (const car of await Promise.all(cars)) {
                // every block checked against its CID before anything is stored, as Kubo's CAR reader does
                const reader = await CarBlockIterator.fromBytes(car);
                const named = (await reader.getRoots()) as unknown as CID[];
                // go-car's CARv1 reader, under Kubo's dag/import, refuses a header without a root
                if (!named.length) throw new Error('empty car, no roots');
                roots.push(...named);
                for await (const { cid, bytes } of reader as AsyncIterable<{ cid: CID; bytes: Uint8Array }>) {
                  await checkBlock(cid, bytes);
                  blockCount++;
                  blockBytes += bytes.byteLength;
                }
                await node.importCar(async function* () {
                  yield car;
                });
              }
              imported.push(...roots);
              res.writeHead(200, { 'content-type': 'application/json', 'x-chunked-output': '1' });
              if (pinRoots)
                for (const root of roots) {
                  const pinned = await node.pin(root, { signal: AbortSignal.timeout(2_000) }).then(
                    () => '',
                    (err: Error) => err.message,
                  );
                  res.write(
                    `${JSON.stringify({ Root: { Cid: { '/': root.toString() }, PinErrorMsg: pinned } })}\n`,
                  );
                }
              if (url.searchParams.get('stats') === 'true')
                res.write(
                  `${JSON.stringify({ Stats: { BlockCount: blockCount, BlockBytesCount: blockBytes } })}\n`,
                );
              res.end();
            } catch (err) {
              fail(res, (err as Error).message);
            }
          });
          req.pipe(bb);
          return;
        }
        case 'block/get': {
          let bytes: Uint8Array;
          try {
            bytes = await node.getBlock!(parseCid(arg).cid);
          } catch {
            return fail(res, `block was not found locally (offline): ipld: could not find ${arg}`);
          }
          res.writeHead(200, { 'content-type': 'text/plain', 'x-stream-output': '1' });
          return void res.end(bytes);
        }
        case 'files/stat': {
          const [, , root, ...rest] = arg.split('/');
          // a path inside a folder (folders.ts resolves it), or a whole DAG's size (a pin by CID's quota)
          if (rest.length) {
            try {
              const r = await node.resolve(parseCid(root ?? '').cid, rest.join('/'));
              return json(res, {
                Hash: r.cid.toString(),
                Type: r.type,
                Size: 0,
                CumulativeSize: 0,
                Blocks: 0,
              });
            } catch (err) {
              return fail(res, `${(err as Error).message}: no link named`);
            }
          }
          const cid = parseCid(root ?? '').cid;
          const size = await node.dagSize(cid);
          const type = await node.resolve(cid, '').then(
            (r) => r.type,
            () => 'file',
          );
          return json(res, { Hash: cid.toString(), Size: size, CumulativeSize: size, Blocks: 0, Type: type });
        }
        case 'ls': {
          const entries = await node.ls(parseCid(arg).cid);
          return json(res, {
            Objects: [
              {
                Hash: arg,
                Links: entries.map((e) => ({
                  Name: e.name,
                  Hash: e.cid.toString(),
                  Size: e.size,
                  Type: e.type === 'directory' ? 1 : 2,
                })),
              },
            ],
          });
        }
        case 'cat': {
          let source: Awaited<ReturnType<NodeProvider['open']>>;
          try {
            source = await node.open(parseCid(arg).cid);
          } catch {
            return fail(res, `block was not found locally (offline): ipld: could not find ${arg}`);
          }
          res.writeHead(200, { 'content-type': 'text/plain' });
          for await (const c of source.chunks) res.write(c);
          return void res.end();
        }
        case 'pin/add':
          await node.pin(parseCid(arg).cid, { signal: AbortSignal.timeout(2_000) });
          return json(res, { Pins: [arg] });
        case 'pin/rm':
          if (!(await node.isPinned(parseCid(arg).cid))) return fail(res, 'not pinned or pinned indirectly');
          await node.unpin(parseCid(arg).cid);
          return json(res, { Pins: [arg] });
        case 'pin/ls':
          if (!(await node.isPinned(parseCid(arg).cid))) return fail(res, `path '${arg}' is not pinned`);
          res.writeHead(200, { 'content-type': 'application/x-ndjson' });
          return void res.end(`${JSON.stringify({ Cid: parseCid(arg).text, Type: 'recursive' })}\n`);
        case 'swarm/connect':
          dialled.push(arg);
          return json(res, { Strings: [`connect ${arg.split('/p2p/')[1] ?? arg} success`] });
        case 'version':
          return json(res, {
            Version: '0.39.0-stand-in',
            Commit: '',
            Repo: '16',
            System: 'amd64/linux',
            Golang: 'go1.25',
          });
        case 'id':
          return json(res, {
            ID: PEER_ID,
            PublicKey: '',
            Addresses: [`/ip4/127.0.0.1/tcp/4001/p2p/${PEER_ID}`],
            AgentVersion: 'kubo/stand-in',
            Protocols: [],
          });
        case 'routing/provide':
          res.writeHead(200, { 'content-type': 'application/x-ndjson' });
          return void res.end(`${JSON.stringify({ Type: 4, ID: PEER_ID, Responses: null, Extra: '' })}\n`);
        default:
          return fail(res, `unknown command "${cmd}"`);
      }
    } catch (err) {
      fail(res, (err as Error).message);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const stop = async () => {
    if (!server.listening) return;
    const closed = new Promise((r) => server.close(r));
    server.closeAllConnections();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    dialled,
    node,
    imported,
    down: stop,
    async up() {
      if (!server.listening) await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    async close() {
      await stop();
      await node.stop();
    },
  };
}
