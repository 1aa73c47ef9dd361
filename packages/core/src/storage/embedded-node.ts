import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { unixfs } from '@helia/unixfs';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { createHeliaLight } from 'helia';
import type { CID } from 'multiformats/cid';
import type { GatewayProvider } from './gateway';
import { pooledLeaves } from './leaf-pool';
import { leafSkippingWalker } from './pin-walker';
import { type CallOptions, type ContentSource, type NodeProvider, ProviderError } from './provider';

const POLL_MS = 250;

/**
 * The default node: Helia in-process without libp2p (no sockets), blocks and pins on disk under `dir`.
 * Reads are offline (a missing block fails at once; the gateways come next). Pinning a CID that is
 * not here fetches its blocks through the verified gateway provider and keeps looking (locally too,
 * so an upload of the same content meanwhile satisfies it) until the caller's deadline.
 */
export async function createEmbeddedNode(dir: string, gateways?: GatewayProvider): Promise<NodeProvider> {
  await mkdir(dir, { recursive: true });
  const blockstore = new FsBlockstore(path.join(dir, 'blocks'));
  const datastore = new FsDatastore(path.join(dir, 'datastore'));
  const helia = createHeliaLight({
    blockstore,
    datastore,
    blockBrokers: [
      {
        name: 'plenum-gateways',
        async retrieve(cid: CID, options: { signal?: AbortSignal } = {}) {
          while (true) {
            options.signal?.throwIfAborted();
            if (await blockstore.has(cid)) {
              const parts: Uint8Array[] = [];
              for await (const p of blockstore.get(cid)) parts.push(p);
              return Buffer.concat(parts);
            }
            if (gateways?.configured) {
              try {
                return await gateways.fetchBlock(cid, { signal: options.signal });
              } catch (err) {
                if (options.signal?.aborted) throw err;
              }
            }
            await sleep(POLL_MS, undefined, { signal: options.signal });
          }
        },
      },
    ],
  });
  await helia.start();
  const fs = unixfs(helia);

  const pinned = async (cid: CID, options: CallOptions) => {
    try {
      await helia.pins.get(cid, { signal: options.signal });
      return true;
    } catch (err) {
      if ((err as Error).name === 'NotFoundError') return false;
      throw err;
    }
  };

  return {
    name: 'embedded',
    add: (source, options = {}) =>
      fs.addByteStream(source, { signal: options.signal, ...pooledLeaves(options.signal) }) as Promise<CID>,
    async open(cid, options = {}): Promise<ContentSource> {
      try {
        const stat = await fs.stat(cid, { offline: true, signal: options.signal });
        return { size: Number(stat.size), chunks: fs.cat(cid, { offline: true, signal: options.signal }) };
      } catch (err) {
        if ((err as Error).name === 'BlockNotFoundWhileOfflineError')
          throw new ProviderError('absent', 'embedded', `${cid} is not in the embedded node`);
        throw err;
      }
    },
    async pin(cid, options = {}) {
      if (await pinned(cid, options)) return;
      try {
        for await (const _ of helia.pins.add(cid, { signal: options.signal, walker: leafSkippingWalker })) {
          // each yielded CID is a block now held by the pin
        }
      } catch (err) {
        if ((err as Error).name !== 'AlreadyPinnedError') throw err;
      }
    },
    async unpin(cid, options = {}) {
      if (!(await pinned(cid, options))) return;
      try {
        for await (const _ of helia.pins.rm(cid, { signal: options.signal, walker: leafSkippingWalker })) {
          // drained: the pin is gone once the walk ends
        }
      } catch (err) {
        if ((err as Error).name !== 'NotFoundError') throw err;
      }
    },
    isPinned: (cid, options = {}) => pinned(cid, options),
    // offline node: nobody to announce to (IPFS_PIN_BROADCAST is a documented no-op here)
    announce: async () => {},
    status: async () => ({ ok: helia.status === 'started' }),
    delegates: async () => [],
    async getBlock(cid) {
      const parts: Uint8Array[] = [];
      for await (const p of blockstore.get(cid)) parts.push(p);
      return Buffer.concat(parts);
    },
    async stop() {
      if (helia.status === 'started') await helia.stop();
    },
  };
}
