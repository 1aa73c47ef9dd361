import { multiaddr } from '@multiformats/multiaddr';
import type { KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import {
  attemptSignal,
  type CallOptions,
  type ContentSource,
  type DirectoryListEntry,
  isAbort,
  type NodeProvider,
  ProviderError,
  primed,
} from './provider';

/** `IPFS_API_URL` is the full RPC URL; `IPFS_NODE_URL` is the node's base URL (`/api/v0` is added). */
export function kuboRpcUrl(apiUrl: string | undefined, nodeUrl: string | undefined): string | undefined {
  if (apiUrl) return apiUrl.replace(/\/+$/, '');
  if (nodeUrl) return `${nodeUrl.replace(/\/+$/, '')}/api/v0`;
  return undefined;
}

/**
 * A real IPFS node (Kubo) through its RPC API. Every call carries its own deadline (IPFS_TIMEOUT)
 * joined with the caller's signal, so a stuck node never holds a request or a worker forever. The client
 * library is imported only here: a server on the embedded node does not carry its ~10 MB of heap
 * (docs/operations.md, "Memory of the embedded mode").
 */
export async function createKuboNode(url: string, timeoutMs: number): Promise<NodeProvider> {
  const { create } = await import('kubo-rpc-client');
  const ipfs: KuboRPCClient = create({ url });
  const sig = (o: CallOptions = {}) => attemptSignal(timeoutMs, o.signal);
  const classify = (err: unknown, signal: AbortSignal) => {
    if (err instanceof ProviderError) return err;
    const message = (err as Error).message ?? String(err);
    // a folder where a file was asked for: read.ts answers 400 NOT_A_FILE
    if (/is a directory/i.test(message)) return Object.assign(new Error(message), { name: 'NotAFileError' });
    if (isAbort(err, signal)) return new ProviderError('timeout', 'kubo', `timed out: ${message}`);
    if (/not found|no link named|could not resolve/i.test(message))
      return new ProviderError('not_found', 'kubo', message);
    return new ProviderError('error', 'kubo', message);
  };

  return {
    name: 'kubo',
    async add(source, options = {}) {
      // the whole upload may take longer than one call's timeout: only the caller's signal applies
      const added = await ipfs.add(source, {
        cidVersion: 1,
        rawLeaves: true,
        pin: false,
        signal: options.signal,
      });
      return CID.parse(added.cid.toString());
    },
    async addDirectory(entries, options = {}) {
      const files = new Map<string, CID>();
      let root: CID | undefined;
      const source = (async function* () {
        for (const e of entries) yield { path: e.path, content: e.content() };
      })();
      for await (const r of ipfs.addAll(source, {
        wrapWithDirectory: true,
        cidVersion: 1,
        rawLeaves: true,
        pin: false,
        signal: options.signal,
      })) {
        const cid = CID.parse(r.cid.toString());
        if (r.path === '') root = cid;
        else files.set(r.path, cid);
      }
      if (!root) throw new ProviderError('error', 'kubo', 'the node returned no directory');
      return { cid: root, files };
    },
    async resolve(cid, path, options = {}) {
      const signal = sig(options);
      try {
        const s = await ipfs.files.stat(path ? `/ipfs/${cid}/${path}` : `/ipfs/${cid}`, { signal });
        return { cid: CID.parse(s.cid.toString()), type: s.type === 'directory' ? 'directory' : 'file' };
      } catch (err) {
        throw classify(err, signal);
      }
    },
    async ls(cid, options = {}) {
      const signal = sig(options);
      const list: DirectoryListEntry[] = [];
      try {
        for await (const e of ipfs.ls(cid, { signal }))
          list.push({
            name: e.name,
            cid: CID.parse(e.cid.toString()),
            size: e.size,
            type: e.type === 'dir' ? 'directory' : 'file',
          });
      } catch (err) {
        throw classify(err, signal);
      }
      return list;
    },
    async getBlock(cid) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        return await ipfs.block.get(cid, { signal });
      } catch (err) {
        throw classify(err, signal);
      }
    },
    async importCar(source, options = {}) {
      // Kubo stores the blocks; pins are Plenum's, made root by root afterwards (pinRoots: false)
      // one CAR: the client takes a list of them
      for await (const _ of ipfs.dag.import([source()], { pinRoots: false, signal: options.signal })) {
        // one result per root
      }
    },
    async open(cid, options = {}): Promise<ContentSource> {
      // the deadline covers reaching the first bytes; the rest streams under the caller's signal
      const first = new AbortController();
      const timer = setTimeout(() => first.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, first.signal]) : first.signal;
      try {
        return { size: undefined, chunks: await primed(ipfs.cat(cid, { signal })) };
      } catch (err) {
        throw classify(err, signal);
      } finally {
        clearTimeout(timer);
      }
    },
    async pin(cid, options = {}) {
      const signal = options.signal ?? AbortSignal.timeout(timeoutMs);
      // the pin's origins are dialled first, as the Pinning Service API intends; one that fails is skipped
      await Promise.allSettled(
        (options.origins ?? []).map(async (o) => ipfs.swarm.connect(multiaddr(o), { signal })),
      );
      try {
        await ipfs.pin.add(cid, { recursive: true, signal });
      } catch (err) {
        throw classify(err, signal);
      }
    },
    async unpin(cid, options = {}) {
      const signal = sig(options);
      try {
        await ipfs.pin.rm(cid, { signal });
      } catch (err) {
        if (/not pinned/i.test((err as Error).message)) return;
        throw classify(err, signal);
      }
    },
    async isPinned(cid, options = {}) {
      const signal = sig(options);
      try {
        for await (const p of ipfs.pin.ls({ paths: [cid], type: 'recursive', signal })) {
          if (p.cid.equals(cid)) return true;
        }
        return false;
      } catch (err) {
        if (/not pinned/i.test((err as Error).message)) return false;
        throw classify(err, signal);
      }
    },
    async dagSize(cid, options = {}) {
      // Kubo's own figure for the DAG (`files stat`): the root block and the sizes its links record
      const signal = sig(options);
      try {
        const stat = await ipfs.files.stat(`/ipfs/${cid}`, { signal });
        return Number(stat.cumulativeSize);
      } catch (err) {
        throw classify(err, signal);
      }
    },
    async announce(cid, options = {}) {
      for await (const _ of ipfs.routing.provide(cid, { signal: sig(options) })) {
        // progress events of the DHT provide
      }
    },
    async status() {
      try {
        const v = await ipfs.version({ signal: sig() });
        return { ok: true, detail: `kubo ${v.version}` };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },
    async delegates() {
      try {
        const id = await ipfs.id({ signal: sig() });
        const peer = id.id.toString();
        return (id.addresses ?? [])
          .map((a) => a.toString())
          .map((a) => (a.includes('/p2p/') ? a : `${a}/p2p/${peer}`));
      } catch {
        return [];
      }
    },
    stop: async () => {},
  };
}
