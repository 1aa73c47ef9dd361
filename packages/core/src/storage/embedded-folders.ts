import { type UnixFS, unixfs } from '@helia/unixfs';
import { CarBlockIterator } from '@ipld/car';
import type { Helia } from 'helia';
import type { CID } from 'multiformats/cid';
import type { PrivacyHold } from './block-privacy';
import { pooledLeaves } from './leaf-pool';
import { attemptSignal, type DirectoryListEntry, type NodeProvider, ProviderError } from './provider';

type Blocks = Helia['blockstore'];

/**
 * The embedded node's folder and CAR operations (docs/storage.md, "Folders and several files", "CAR
 * import"): folders are imported one file at a time, paths resolved and folders listed from the local
 * blockstore first (then connected peers, within IPFS_TIMEOUT), a checked CAR's blocks put as they come.
 * Writes go through Helia's blockstore (`blocks`: the GC guard touches each block); under a hold, through
 * `marking(hold)`, which marks each block for the privacy guard before it is stored.
 */
export function embeddedFolders(o: {
  fs: UnixFS;
  blocks: Blocks;
  marking: (hold: PrivacyHold) => Blocks;
  connected: () => number;
  timeoutMs: number;
}): Pick<NodeProvider, 'addDirectory' | 'resolve' | 'ls' | 'importCar'> {
  const { fs, blocks, marking, connected, timeoutMs } = o;
  return {
    async addDirectory(entries, opts = {}) {
      const importer = opts.hold ? unixfs({ blockstore: marking(opts.hold) }) : fs;
      const files = new Map<string, CID>();
      let root: CID | undefined;
      // one file at a time, each read from its spool file only when the importer reaches it: memory stays
      // a few leaves and file handles one, whatever the number of files
      const source = (async function* () {
        for (const e of entries)
          yield {
            path: e.path,
            content: (async function* () {
              yield* e.content();
            })(),
          };
      })();
      for await (const r of importer.addAll(source, {
        wrapWithDirectory: true,
        fileImportConcurrency: 1,
        signal: opts.signal,
        ...pooledLeaves(opts.signal),
      })) {
        if (r.path === '') root = r.cid as CID;
        else files.set(r.path ?? '', r.cid as CID);
      }
      if (!root) throw new Error('the importer produced no directory');
      return { cid: root, files };
    },
    async resolve(cid, path, opts = {}) {
      const stat = async (offline: boolean, signal?: AbortSignal) => {
        const s = await fs.stat(cid, { path, offline, signal });
        return {
          cid: s.cid as CID,
          type: s.type === 'directory' ? ('directory' as const) : ('file' as const),
        };
      };
      try {
        return await stat(true, opts.signal);
      } catch (err) {
        if ((err as Error).name !== 'BlockNotFoundWhileOfflineError') throw err;
      }
      if (connected() === 0)
        throw new ProviderError('absent', 'embedded', `${cid} is not in the embedded node`);
      const signal = attemptSignal(timeoutMs, opts.signal);
      try {
        return await stat(false, signal);
      } catch (err) {
        if (signal.aborted && !opts.signal?.aborted)
          throw new ProviderError(
            'timeout',
            'embedded',
            `no connected peer sent ${cid} within ${timeoutMs} ms`,
          );
        throw err;
      }
    },
    async ls(cid, opts = {}) {
      const list: DirectoryListEntry[] = [];
      const signal = attemptSignal(timeoutMs, opts.signal);
      try {
        const offline = connected() === 0;
        for await (const e of fs.ls(cid, { signal, offline })) {
          // an entry's link says neither its type nor a file's real size: its own node does
          const stat = await fs.stat(e.cid, { signal, offline });
          list.push({
            name: e.name,
            cid: e.cid as CID,
            size: Number(stat.size),
            type: stat.type === 'directory' ? 'directory' : 'file',
          });
        }
      } catch (err) {
        if ((err as Error).name === 'BlockNotFoundWhileOfflineError')
          throw new ProviderError('absent', 'embedded', `${cid} is not in the embedded node`);
        if (signal.aborted && !opts.signal?.aborted)
          throw new ProviderError(
            'timeout',
            'embedded',
            `no connected peer sent ${cid} within ${timeoutMs} ms`,
          );
        throw err;
      }
      return list;
    },
    async importCar(source, opts = {}) {
      const blockstore = opts.hold ? marking(opts.hold) : blocks;
      for await (const { cid, bytes } of (await CarBlockIterator.fromIterable(source())) as AsyncIterable<{
        cid: CID;
        bytes: Uint8Array;
      }>) {
        opts.signal?.throwIfAborted();
        // identity CIDs carry their bytes inline: nothing to store
        if (cid.multihash.code === 0x00) continue;
        if (!(await blockstore.has(cid))) await blockstore.put(cid, bytes, { signal: opts.signal });
      }
    },
  };
}
