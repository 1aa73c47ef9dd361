import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withLibp2pLight } from '@helia/libp2p';
import { unixfs } from '@helia/unixfs';
import { bootstrap } from '@libp2p/bootstrap';
import { identify } from '@libp2p/identify';
import { KEEP_ALIVE, type Libp2p } from '@libp2p/interface';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { webSockets } from '@libp2p/websockets';
import { yamux } from '@libp2p/yamux';
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { createHeliaLight, type Helia } from 'helia';
import type { CID } from 'multiformats/cid';
import { BlockGuard } from './block-guard';
import { BlockPrivacy } from './block-privacy';
import { CAR_CODECS } from './codecs';
import { localDagSize } from './dag-size';
import { embeddedFolders } from './embedded-folders';
import { blockstoreUsage, type GcReport, markAndSweep } from './garbage-collector';
import type { GatewayProvider } from './gateway';
import { withGuardedBitswap } from './guarded-bitswap';
import { GuardedBlockstore } from './guarded-blockstore';
import { pooledLeaves } from './leaf-pool';
import { leafSkippingWalker } from './pin-walker';
import {
  attemptSignal,
  type CallOptions,
  type ContentSource,
  type NodeProvider,
  type PinOptions,
  ProviderError,
  type WriteOptions,
} from './provider';
import { InboundGuard } from './swarm-guard';

const POLL_MS = 250;

/** a start that cannot succeed with this configuration: the message says what to change */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** The embedded node's libp2p settings (docs/storage.md, "The embedded node on the network"). */
export interface SwarmOptions {
  /** TCP port; 0 = any free port */
  port: number;
  /** WebSocket port; 0 = any free port */
  wsPort: number;
  /** the interface to listen on (0.0.0.0 = every IPv4 interface) */
  host: string;
  /**
   * true when the ports are defaults rather than chosen: a default port another program holds (a local
   * IPFS daemon on 4001) becomes any free port, with a notice; a chosen port in use stops the start
   */
  anyPortIfTaken?: boolean;
  /** multiaddrs with /p2p/<peer id> dialled at start and kept connected */
  bootstrap: string[];
  /** addresses to announce instead of the listening ones (a public address behind NAT) */
  announce: string[];
  maxConnections: number;
  /** ms a new inbound connection has to complete the libp2p handshake (default 5,000) */
  handshakeTimeoutMs?: number | undefined;
  /** inbound connections in their handshake at once, per listener; more are refused (default 64) */
  maxPendingInbound?: number | undefined;
}

export interface EmbeddedNodeOptions {
  dir: string;
  gateways?: GatewayProvider | undefined;
  /** per-attempt deadline for network reads (IPFS_TIMEOUT) */
  timeoutMs: number;
  /** null: no libp2p and no sockets (IPFS_OFFLINE) */
  swarm: SwarmOptions | null;
  /** what the operator should know about the start (a default port that was taken) */
  notice?: (message: string) => void;
}

/**
 * A read (not a pin) asks the network through bitswap only: the gateways are the read path's next
 * provider of their own (docs/storage.md, "Providers"), so the gateway block broker steps aside.
 */
const READ_ONLY_BITSWAP = 'plenumReadFromPeers';

const ipProto = (host: string) => (host.includes(':') ? 'ip6' : 'ip4');

/**
 * The default node: Helia in-process, blocks and pins on disk under `dir`. With a swarm it runs libp2p
 * (TCP and WebSocket, noise, yamux, identify, bitswap) with a persistent peer identity kept in its
 * datastore: it serves its blocks to connected peers and fetches from them. Without one (IPFS_OFFLINE)
 * it opens no socket at all.
 *
 * Pinning a CID that is not here dials the pin's origins first, then fetches every missing block,
 * racing bitswap (connected peers) and the verified gateways, and keeps looking locally too (an upload
 * of the same content meanwhile satisfies it) until the caller's deadline. Only once every block is
 * local is the pin recorded, so a failed pin leaves no pin behind. Every block from the network is
 * checked against its CID's hash by Helia before it is stored.
 */
export async function createEmbeddedNode(options: EmbeddedNodeOptions): Promise<NodeProvider> {
  const { dir, gateways, swarm, timeoutMs } = options;
  await mkdir(dir, { recursive: true });
  const blocksDir = path.join(dir, 'blocks');
  const blockstore = new FsBlockstore(blocksDir);
  const datastore = new FsDatastore(path.join(dir, 'datastore'));
  // GC: work in flight keeps what it touches (docs/storage.md, "Garbage collection")
  const guard = new BlockGuard();
  // the blockstore's bytes, for IPFS_GC_WATERMARK: counted from disk when first asked, then kept up to
  // date by writes and GC runs (an estimate between runs: a block written twice counts twice)
  let usage: number | null = null;
  const guarded = new GuardedBlockstore(blockstore, guard, (bytes) => {
    if (usage !== null) usage += bytes;
  });
  const light = createHeliaLight({
    blockstore: guarded as unknown as FsBlockstore,
    datastore,
    // beyond dag-pb and raw: the codecs a CAR import may bring (car-import.ts)
    codecs: CAR_CODECS,
    blockBrokers: [
      {
        name: 'plenum-gateways',
        async retrieve(cid: CID, opts: { signal?: AbortSignal; [READ_ONLY_BITSWAP]?: boolean } = {}) {
          if (opts[READ_ONLY_BITSWAP]) throw new ProviderError('absent', 'embedded', 'reads ask peers only');
          while (true) {
            opts.signal?.throwIfAborted();
            if (await blockstore.has(cid)) return readLocalBlock(blockstore, cid);
            if (gateways?.configured) {
              try {
                return await gateways.fetchBlock(cid, { signal: opts.signal });
              } catch (err) {
                if (opts.signal?.aborted) throw err;
              }
            }
            await sleep(POLL_MS, undefined, { signal: opts.signal });
          }
        },
      },
    ],
  });
  // blocks of non-public files are not given to peers (docs/storage.md, "Not given to other peers")
  const privacy = new BlockPrivacy(blockstore, (code) => light.getCodec(code));
  let libp2p: Libp2p | null = null;
  if (swarm) {
    const ip = ipProto(swarm.host);
    const { port, wsPort } = swarm.anyPortIfTaken ? await freeIfTaken(swarm, options.notice) : swarm;
    const inbound = new InboundGuard({
      handshakeTimeoutMs: swarm.handshakeTimeoutMs ?? 5_000,
      maxPending: swarm.maxPendingInbound ?? 64,
    });
    const networked = withLibp2pLight(light, {
      addresses: {
        listen: [`/${ip}/${swarm.host}/tcp/${port}`, `/${ip}/${swarm.host}/tcp/${wsPort}/ws`],
        ...(swarm.announce.length ? { announce: swarm.announce } : {}),
      },
      // sockets on the WebSocket port that never complete the handshake are bounded in time and number
      transports: [tcp(), inbound.transport(webSockets())],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      // bootstrap peers are tagged keep-alive: libp2p dials them again when a connection drops
      peerDiscovery: swarm.bootstrap.length
        ? [bootstrap({ list: swarm.bootstrap, tagName: `${KEEP_ALIVE}-bootstrap`, timeout: 0 })]
        : [],
      connectionManager: {
        maxConnections: swarm.maxConnections,
        // libp2p's own limits on inbound upgrades (TCP and WebSocket alike), with the same bounds
        inboundUpgradeTimeout: swarm.handshakeTimeoutMs ?? 5_000,
        maxIncomingPendingConnections: swarm.maxPendingInbound ?? 64,
      },
      services: { identify: identify(), ping: ping() },
    });
    // bitswap: peers' want-lists kept to 1,024 entries each, a bounded number of streams
    withGuardedBitswap(
      networked,
      { maxWantlistSize: 1024, maxInboundStreams: 64, maxOutboundStreams: 64 },
      privacy,
    );
    try {
      await networked.start();
    } catch (err) {
      await networked.stop().catch(() => {});
      if ((err as Error).name === 'UnsupportedListenAddressesError')
        throw new StartupError(
          `The IPFS node cannot listen on ${swarm.host} TCP ${port} / WebSocket ${wsPort} (in use by ` +
            'another IPFS node?): set IPFS_SWARM_PORT and IPFS_SWARM_WS_PORT to free ports (0 = any), or IPFS_OFFLINE=1',
        );
      throw err;
    }
    libp2p = networked.libp2p;
    libp2p.addEventListener('connection:open', (e) => inbound.opened(e.detail.remoteAddr.toString()));
  } else {
    await light.start();
  }
  const helia = light;
  const fs = unixfs(helia);
  let running: Promise<GcReport> | null = null;
  const connected = () => (libp2p ? libp2p.getConnections().length : 0);

  const pinned = async (cid: CID, opts: CallOptions) => {
    try {
      await helia.pins.get(cid, { signal: opts.signal });
      return true;
    } catch (err) {
      if ((err as Error).name === 'NotFoundError') return false;
      throw err;
    }
  };

  /** dials the pin's origins at once (each within the caller's deadline); one that fails is skipped */
  const dialOrigins = async (origins: string[], signal?: AbortSignal) => {
    if (!libp2p) return;
    const node = libp2p;
    const addrs: Multiaddr[] = [];
    for (const o of origins) {
      try {
        const ma = multiaddr(o);
        if (ma.getComponents().some((c) => c.name === 'p2p')) addrs.push(ma);
      } catch {
        // not a multiaddr: validated at the API; nothing to dial
      }
    }
    await Promise.allSettled(addrs.map((ma) => node.dial(ma, { signal })));
  };

  /**
   * fetches every missing block of the DAG (the brokers race: bitswap, gateways, local arrivals); under a
   * hold, each block is marked before it is asked for, so it is never announced to a peer that wants it
   */
  const fetchAll = async (cid: CID, signal?: AbortSignal, hold?: WriteOptions['hold']) => {
    const blocks = hold ? markingBlockstore(helia.blockstore, hold) : helia.blockstore;
    const walker = leafSkippingWalker({ blockstore: blocks, getCodec: helia.getCodec });
    try {
      for await (const _ of walker.walk(cid, { signal })) {
        // each yielded node's block is now local
      }
    } catch (err) {
      // Helia wraps the brokers' aborts in LoadBlockFailedError: the deadline is the reason
      if (signal?.aborted) throw signal.reason;
      throw err;
    }
  };

  /** a network read: bitswap only, within IPFS_TIMEOUT without a new block; 'timeout' when it runs out */
  const networkRead = async (cid: CID, outer?: AbortSignal): Promise<ContentSource> => {
    const readOpts = (signal: AbortSignal) =>
      ({ signal, [READ_ONLY_BITSWAP]: true }) as { signal: AbortSignal };
    const statSignal = attemptSignal(timeoutMs, outer);
    let stat: { size: bigint | number };
    try {
      stat = await fs.stat(cid, readOpts(statSignal));
    } catch (err) {
      if (statSignal.aborted && !outer?.aborted)
        throw new ProviderError(
          'timeout',
          'embedded',
          `no connected peer sent ${cid} within ${timeoutMs} ms`,
        );
      throw err;
    }
    return {
      size: Number(stat.size),
      chunks: {
        async *[Symbol.asyncIterator]() {
          // the deadline restarts with every chunk: a large file may take long, a stalled one may not
          const idle = new AbortController();
          const signal = outer ? AbortSignal.any([outer, idle.signal]) : idle.signal;
          let timer = setTimeout(() => idle.abort(new DOMException('stalled', 'TimeoutError')), timeoutMs);
          try {
            for await (const chunk of fs.cat(cid, readOpts(signal))) {
              clearTimeout(timer);
              yield chunk;
              timer = setTimeout(() => idle.abort(new DOMException('stalled', 'TimeoutError')), timeoutMs);
            }
          } catch (err) {
            if (idle.signal.aborted && !outer?.aborted)
              throw new ProviderError(
                'timeout',
                'embedded',
                `peers stopped sending ${cid} for ${timeoutMs} ms`,
              );
            throw err;
          } finally {
            clearTimeout(timer);
          }
        },
      },
    };
  };

  return {
    name: 'embedded',
    add: (source, opts: WriteOptions = {}) =>
      // under a hold every block is marked before it is stored (and so before bitswap could announce it)
      (opts.hold ? unixfs({ blockstore: markingBlockstore(helia.blockstore, opts.hold) }) : fs).addByteStream(
        source,
        { signal: opts.signal, ...pooledLeaves(opts.signal) },
      ) as Promise<CID>,
    // folders and CARs write through Helia's blockstore too: the GC guard sees their blocks, a hold marks them
    ...embeddedFolders({
      fs,
      blocks: helia.blockstore,
      marking: (hold) => markingBlockstore(helia.blockstore, hold),
      connected,
      timeoutMs,
    }),
    async open(cid, opts = {}): Promise<ContentSource> {
      try {
        const stat = await fs.stat(cid, { offline: true, signal: opts.signal });
        if (stat.type === 'directory') throw notAFile(cid);
        return { size: Number(stat.size), chunks: fs.cat(cid, { offline: true, signal: opts.signal }) };
      } catch (err) {
        if ((err as Error).name !== 'BlockNotFoundWhileOfflineError') throw err;
      }
      // not (all) here: connected peers are a network source like the gateways; with none, nobody to ask
      if (connected() === 0)
        throw new ProviderError('absent', 'embedded', `${cid} is not in the embedded node`);
      return networkRead(cid, opts.signal);
    },
    async pin(cid, opts: PinOptions = {}) {
      if (await pinned(cid, opts)) return;
      opts.hold?.mark(cid);
      // what the fetch brings and the pin walk finds stays until the pin holds it
      const lease = guard.lease();
      try {
        if (opts.origins?.length) await dialOrigins(opts.origins, opts.signal);
        await fetchAll(cid, opts.signal, opts.hold);
        for await (const _ of helia.pins.add(cid, { signal: opts.signal, walker: leafSkippingWalker })) {
          // each yielded CID is a block now held by the pin
        }
      } catch (err) {
        if ((err as Error).name !== 'AlreadyPinnedError') throw err;
      } finally {
        lease.release();
      }
    },
    async unpin(cid, opts = {}) {
      if (!(await pinned(cid, opts))) return;
      try {
        for await (const _ of helia.pins.rm(cid, { signal: opts.signal, walker: leafSkippingWalker })) {
          // drained: the pin is gone once the walk ends
        }
      } catch (err) {
        if ((err as Error).name !== 'NotFoundError') throw err;
      }
    },
    isPinned: (cid, opts = {}) => pinned(cid, opts),
    dagSize: (cid, opts = {}) =>
      localDagSize({ blockstore: helia.blockstore, getCodec: helia.getCodec }, cid, { signal: opts.signal }),
    // connected peers learn of new blocks through bitswap; there is no DHT to announce to (no routers)
    announce: async () => {},
    status: async () => ({ ok: helia.status === 'started' }),
    network: () =>
      libp2p
        ? {
            peerId: libp2p.peerId.toString(),
            addresses: libp2p.getMultiaddrs().map(String),
            connections: connected(),
          }
        : null,
    delegates: async () => (libp2p ? libp2p.getMultiaddrs().map(String) : []),
    getBlock: (cid) => readLocalBlock(blockstore, cid),
    privacy,
    protect: () => guard.lease(),
    collectGarbage(opts) {
      // one run at a time: a second caller joins the run under way and gets its report
      running ??= markAndSweep({
        blocksDir,
        store: blockstore,
        guard,
        roots: async function* () {
          for await (const pin of helia.pins.ls({ signal: opts.signal })) yield pin.cid;
          yield* opts.roots;
        },
        getCodec: async (code) => helia.getCodec(code),
        signal: opts.signal,
      })
        .then((report) => {
          usage = report.bytesKept;
          return report;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
    async usedBytes() {
      usage ??= await blockstoreUsage(blocksDir);
      return usage;
    },
    async stop() {
      if (helia.status === 'started') await helia.stop();
    },
  };
}

/** a folder where a file was asked for (read.ts answers 400 NOT_A_FILE) */
function notAFile(cid: CID): Error {
  const err = new Error(`${cid} is a directory, not a file`);
  err.name = 'NotAFileError';
  return err;
}

type Blocks = Helia['blockstore'];

/** the blockstore with every block marked under `hold` before it is written or read */
function markingBlockstore(blocks: Blocks, hold: NonNullable<WriteOptions['hold']>): Blocks {
  return new Proxy(blocks, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop !== 'put' && prop !== 'get' && prop !== 'has') return value;
      return (cid: CID, ...rest: unknown[]) => {
        hold.mark(cid);
        return (value as (...args: unknown[]) => unknown).call(target, cid, ...rest);
      };
    },
  });
}

/** A block from the local blockstore, whose reads come in parts, as one buffer. */
async function readLocalBlock(blockstore: FsBlockstore, cid: CID): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of blockstore.get(cid)) parts.push(p);
  return Buffer.concat(parts);
}

/** whether a TCP port can be listened on now (0, any port, always can) */
function canListen(host: string, port: number) {
  if (port === 0) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The default ports, or any free port for each one another program holds (with a notice saying so). */
async function freeIfTaken(swarm: SwarmOptions, notice?: (message: string) => void) {
  const tcpFree = await canListen(swarm.host, swarm.port);
  const wsFree = await canListen(swarm.host, swarm.wsPort);
  if (!tcpFree || !wsFree)
    notice?.(
      `The IPFS swarm port${tcpFree || wsFree ? '' : 's'} ${[
        !tcpFree && `TCP ${swarm.port}`,
        !wsFree && `WebSocket ${swarm.wsPort}`,
      ]
        .filter(Boolean)
        .join(
          ' and ',
        )} ${tcpFree || wsFree ? 'is' : 'are'} in use (another IPFS node?): listening on a free port ` +
        'instead; set IPFS_SWARM_PORT (and IPFS_SWARM_WS_PORT) to fix them',
    );
  return { port: tcpFree ? swarm.port : 0, wsPort: wsFree ? swarm.wsPort : 0 };
}
