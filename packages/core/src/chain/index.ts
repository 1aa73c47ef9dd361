import type { Services } from '../services';
import { ChainReader } from './reader';

export * from './reader';

const readers = new WeakMap<object, ChainReader>();

/** the chain reader of a service set (one per configuration, so its clients and counters are shared) */
export function chainReaderOf(svc: Pick<Services, 'config'>): ChainReader {
  const key = svc.config;
  let reader = readers.get(key);
  if (!reader) {
    const chains = svc.config.governance.chains;
    reader = new ChainReader({
      rpcUrls: new Map(Object.entries(chains?.rpcUrls ?? {}).map(([id, url]) => [Number(id), url])),
      confirmations: chains?.confirmations ?? 0,
      timeoutMs: chains?.timeoutMs ?? 10_000,
    });
    readers.set(key, reader);
  }
  return reader;
}
