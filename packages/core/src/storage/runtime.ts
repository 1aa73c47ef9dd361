import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Services } from '../services';
import { createEmbeddedNode, type SwarmOptions } from './embedded-node';
import { GatewayProvider } from './gateway';
import { StorageEvents } from './internal-events';
import { createKuboNode, kuboRpcUrl } from './kubo-node';
import type { NodeProvider } from './provider';

/** The storage domain's live parts: providers, the event bus and the background work in flight. */
export interface StorageRuntime {
  node: NodeProvider;
  gateways: GatewayProvider;
  events: StorageEvents;
  /**
   * CIDs this process's node imported from an upload and pinned itself, until the pin verifier took
   * them: their bytes were just written here, so verification checks the pin and reads nothing back
   */
  imported: Set<string>;
  /**
   * DATA_DIR/upload-spool: an upload's bytes wait here until the whole file is accepted, so nothing of a
   * refused one reaches the node (upload.ts); emptied at start
   */
  spoolDir: string;
  /** background jobs (pin verification) in flight, so stop() and tests can wait for them */
  pending: Set<Promise<unknown>>;
  /**
   * the automatic garbage collection (collect-garbage.ts): whether a run is under way, whether another
   * was asked for meanwhile, and whether one must run whatever the watermark (a hidden file unpinned)
   */
  autoGc: { running: boolean; again: boolean; hidden: boolean };
  /** aborted on stop(): background jobs give up instead of holding shutdown */
  signal: AbortSignal;
  track<T>(p: Promise<T>): Promise<T>;
  /** resolves when no background job is left */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface StorageServices extends Services {
  storage: StorageRuntime;
}

export interface RuntimeOptions {
  dataDir: string;
  apiUrl?: string | undefined;
  nodeUrl?: string | undefined;
  gatewayUrls: string[];
  timeoutMs: number;
  /** the embedded node's libp2p settings; null = IPFS_OFFLINE (no sockets) */
  swarm: SwarmOptions | null;
  /** what the operator should know about the node's start (logged as a warning) */
  notice?: (message: string) => void;
}

/** IPFS_API_URL (wins) or IPFS_NODE_URL → Kubo; otherwise the embedded node under DATA_DIR/ipfs. */
export async function createStorageRuntime(o: RuntimeOptions): Promise<StorageRuntime> {
  const gateways = new GatewayProvider(o.gatewayUrls, o.timeoutMs);
  const rpc = kuboRpcUrl(o.apiUrl, o.nodeUrl);
  const node = rpc
    ? await createKuboNode(rpc, o.timeoutMs)
    : await createEmbeddedNode({
        dir: path.join(o.dataDir, 'ipfs'),
        gateways,
        timeoutMs: o.timeoutMs,
        swarm: o.swarm,
        notice: o.notice,
      });
  const spoolDir = path.join(o.dataDir, 'upload-spool');
  // what a stopped process left half-written
  await rm(spoolDir, { recursive: true, force: true });
  await mkdir(spoolDir, { recursive: true });
  const pending = new Set<Promise<unknown>>();
  let stopping = false;
  const shutdown = new AbortController();
  const runtime: StorageRuntime = {
    node,
    gateways,
    events: new StorageEvents(),
    imported: new Set(),
    autoGc: { running: false, again: false, hidden: false },
    spoolDir,
    pending,
    signal: shutdown.signal,
    track(p) {
      pending.add(p);
      const done = () => pending.delete(p);
      p.then(done, done);
      return p;
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      shutdown.abort(new Error('storage is stopping'));
      await runtime.idle();
      await node.stop();
    },
  };
  return runtime;
}
