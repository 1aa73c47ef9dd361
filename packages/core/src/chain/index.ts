import type { CoreConfig } from '../config';
import { ChainReader } from './reader';

export * from './reader';

/** the chain reader of one service container (services.ts): its clients and counters are shared */
export function createChainReader(config: CoreConfig): ChainReader {
  const chains = config.governance.chains;
  return new ChainReader({
    rpcUrls: new Map(Object.entries(chains?.rpcUrls ?? {}).map(([id, url]) => [Number(id), url])),
    confirmations: chains?.confirmations ?? 0,
    timeoutMs: chains?.timeoutMs ?? 10_000,
  });
}
