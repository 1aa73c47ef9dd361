import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withBitswap } from '@helia/bitswap';
import { withLibp2pLight } from '@helia/libp2p';
import { unixfs } from '@helia/unixfs';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { tcp } from '@libp2p/tcp';
import { webSockets } from '@libp2p/websockets';
import { yamux } from '@libp2p/yamux';
import { multiaddr } from '@multiformats/multiaddr';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { createHeliaLight } from 'helia';
import type { CID } from 'multiformats/cid';

/**
 * Another IPFS peer on loopback, as a user's or another service's node would be: plain Helia with
 * libp2p (TCP and WebSocket, noise, yamux, identify) and bitswap, built here from the libraries and
 * not from Plenum's embedded node. It holds what the test adds and fetches what it asks for.
 */
export async function startHeliaPeer() {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-peer-'));
  const blocks = new FsBlockstore(path.join(dir, 'blocks'));
  const helia = withBitswap(
    withLibp2pLight(
      createHeliaLight({
        blockstore: blocks,
        datastore: new FsDatastore(path.join(dir, 'datastore')),
      }),
      {
        addresses: { listen: ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] },
        transports: [tcp(), webSockets()],
        connectionEncrypters: [noise()],
        streamMuxers: [yamux()],
        services: { identify: identify() },
      },
    ),
  );
  await helia.start();
  const fs = unixfs(helia);
  return {
    helia,
    peerId: helia.libp2p.peerId.toString(),
    /** multiaddrs with /p2p/<peer id> */
    addresses: () => helia.libp2p.getMultiaddrs().map(String),
    add: (bytes: Uint8Array) =>
      fs.addBytes(bytes, { rawLeaves: true, cidVersion: 1 } as never) as Promise<CID>,
    async cat(cid: CID, signal?: AbortSignal) {
      const parts: Uint8Array[] = [];
      for await (const chunk of fs.cat(cid, { signal })) parts.push(chunk);
      return Buffer.concat(parts);
    },
    has: (cid: CID) => helia.blockstore.has(cid),
    /** forgets a block locally (Helia's own delete would also tell content routers, and there are none) */
    deleteBlock: (cid: CID) => blocks.delete(cid),
    dial: (address: string, signal?: AbortSignal) => helia.libp2p.dial(multiaddr(address), { signal }),
    connections: () => helia.libp2p.getConnections().length,
    async stop() {
      await helia.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type HeliaPeer = Awaited<ReturnType<typeof startHeliaPeer>>;
