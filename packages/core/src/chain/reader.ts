/**
 * Token holdings read from an EVM chain (docs/governance.md, "Token holdings from the chain"): a token's
 * symbol and decimals, a snapshot block, and many holders' weights at that block in few RPC calls. Weights
 * are read by `eth_call` at the block (`balanceOf` for `erc20`; `getVotes` for `erc20-votes`, which at a
 * past block is `getPastVotes(account, block)` without the future-lookup revert at the newest block), in
 * multicalls of a few hundred reads each: through Multicall3 where the chain has it, viem's deployless
 * multicall where it does not. Every RPC request is counted (`rpcRequests`), so tests and the bench can
 * report how many a freeze took.
 */

import {
  type Address,
  type Chain,
  createPublicClient,
  custom,
  defineChain,
  getAddress,
  http,
  type PublicClient,
} from 'viem';
import { AppError, badRequest } from '../shared/errors';

export const TOKEN_STANDARDS = ['erc20', 'erc20-votes'] as const;
export type TokenStandard = (typeof TOKEN_STANDARDS)[number];

export interface TokenRef {
  chainId: number;
  address: string;
  standard: TokenStandard;
}

export interface SnapshotBlock {
  number: bigint;
  hash: string;
  /** Unix seconds */
  timestamp: number;
}

export interface ChainReaderConfig {
  /** chain id → JSON-RPC URL (CHAIN_RPC_URLS) */
  rpcUrls: ReadonlyMap<number, string>;
  /** blocks below the newest one for a snapshot (CHAIN_CONFIRMATIONS) */
  confirmations: number;
  /** per RPC request */
  timeoutMs: number;
  /** retries of a failed RPC request (viem's, with backoff) */
  retryCount?: number;
  /** reads per multicall request */
  chunkSize?: number;
}

/** the canonical Multicall3 address, the same on every chain that has it */
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

const erc20Abi = [
  { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] },
  {
    type: 'function',
    name: 'totalSupply',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'getVotes',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'delegates',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'address' }],
  },
] as const;

export const chainNotConfigured = (chainId: number) =>
  badRequest(
    `No RPC is configured for chain ${chainId} (CHAIN_RPC_URLS)`,
    [{ path: 'votingRules.token.chainId', message: 'no RPC configured for this chain' }],
    'CHAIN_NOT_CONFIGURED',
  );

export class ChainReader {
  /** JSON-RPC requests sent so far (a batch of reads in one multicall is one) */
  rpcRequests = 0;
  private readonly clients = new Map<number, PublicClient>();
  private readonly multicall3 = new Set<number>();

  constructor(private readonly config: ChainReaderConfig) {}

  /** whether an RPC is configured for the chain */
  has(chainId: number): boolean {
    return this.config.rpcUrls.has(chainId);
  }

  client(chainId: number): PublicClient {
    const existing = this.clients.get(chainId);
    if (existing) return existing;
    const url = this.config.rpcUrls.get(chainId);
    if (!url) throw chainNotConfigured(chainId);
    const chain: Chain = defineChain({
      id: chainId,
      name: `chain ${chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const inner = http(url, { timeout: this.config.timeoutMs, retryCount: 0 })({ chain });
    // every request that goes out is counted, each retry (viem's, with backoff) too
    const counted = custom(
      {
        request: (args: { method: string; params?: unknown }) => {
          this.rpcRequests++;
          return inner.request(args as never);
        },
      },
      { retryCount: this.config.retryCount ?? 2 },
    );
    const client = createPublicClient({
      chain,
      transport: counted,
      cacheTime: 0,
    }) as PublicClient;
    this.clients.set(chainId, client);
    return client;
  }

  /**
   * The token's symbol and decimals, read at the newest block: a contract that does not answer both is
   * 400 TOKEN_NOT_FOUND; an RPC that does not answer is 503 CHAIN_UNAVAILABLE.
   */
  async describeToken(ref: TokenRef): Promise<{ symbol: string; decimals: number }> {
    const client = this.client(ref.chainId);
    const address = getAddress(ref.address);
    try {
      const [symbol, decimals] = await Promise.all([
        client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
        client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
      ]);
      if (ref.standard === 'erc20-votes')
        await client.readContract({ address, abi: erc20Abi, functionName: 'getVotes', args: [address] });
      return { symbol, decimals };
    } catch (err) {
      if (isUnreachable(err)) throw chainUnavailable(ref.chainId, err);
      throw badRequest(
        `No ${ref.standard} token answers at ${address} on chain ${ref.chainId}`,
        [
          {
            path: 'votingRules.token.address',
            message: `not an ${ref.standard} token on chain ${ref.chainId}`,
          },
        ],
        'TOKEN_NOT_FOUND',
      );
    }
  }

  /** the newest block less the confirmations */
  async snapshotBlock(chainId: number): Promise<SnapshotBlock> {
    const client = this.client(chainId);
    const newest = await client.getBlockNumber({ cacheTime: 0 });
    const number =
      newest > BigInt(this.config.confirmations) ? newest - BigInt(this.config.confirmations) : 0n;
    const block = await client.getBlock({ blockNumber: number });
    return { number, hash: block.hash!, timestamp: Number(block.timestamp) };
  }

  /** every holder's weight at the block, in multicalls of `chunkSize` reads; addresses as given */
  async weightsAt(
    ref: TokenRef,
    holders: readonly string[],
    blockNumber: bigint,
  ): Promise<Map<string, bigint>> {
    const client = this.client(ref.chainId);
    const address = getAddress(ref.address);
    const functionName = ref.standard === 'erc20-votes' ? 'getVotes' : 'balanceOf';
    const chunk = this.config.chunkSize ?? 500;
    const useMulticall3 = await this.hasMulticall3(ref.chainId, blockNumber);
    const out = new Map<string, bigint>();
    for (let i = 0; i < holders.length; i += chunk) {
      const part = holders.slice(i, i + chunk);
      const values = await client.multicall({
        contracts: part.map((h) => ({
          address,
          abi: erc20Abi,
          functionName,
          args: [getAddress(h) as Address],
        })),
        blockNumber,
        allowFailure: false,
        // one request per chunk: viem's own split is by calldata bytes
        batchSize: 0,
        ...(useMulticall3 ? { multicallAddress: MULTICALL3 } : { deployless: true }),
      });
      part.forEach((h, k) => {
        out.set(h, values[k] as bigint);
      });
    }
    return out;
  }

  /**
   * An `erc20-votes` token's own delegate of `account` at the newest block (ERC20Votes `delegates`), null
   * when it names nobody (the zero address) or does not answer `delegates`. An RPC that does not answer is
   * 503 CHAIN_UNAVAILABLE.
   */
  async delegateOf(ref: TokenRef, account: string): Promise<string | null> {
    const client = this.client(ref.chainId);
    try {
      const found = await client.readContract({
        address: getAddress(ref.address),
        abi: erc20Abi,
        functionName: 'delegates',
        args: [getAddress(account) as Address],
      });
      return /^0x0{40}$/.test(found) ? null : getAddress(found);
    } catch (err) {
      if (isUnreachable(err)) throw chainUnavailable(ref.chainId, err);
      // a token that does not answer `delegates` names nobody we can read
      return null;
    }
  }

  /** the token's total supply at the block */
  async totalSupplyAt(ref: TokenRef, blockNumber: bigint): Promise<bigint> {
    return this.client(ref.chainId).readContract({
      address: getAddress(ref.address),
      abi: erc20Abi,
      functionName: 'totalSupply',
      blockNumber,
    });
  }

  /** whether Multicall3 is deployed at the block: remembered once found (it is never removed) */
  private async hasMulticall3(chainId: number, blockNumber: bigint): Promise<boolean> {
    if (this.multicall3.has(chainId)) return true;
    const code = await this.client(chainId)
      .getCode({ address: MULTICALL3, blockNumber })
      .catch(() => undefined);
    const found = !!code && code !== '0x';
    if (found) this.multicall3.add(chainId);
    return found;
  }
}

function isUnreachable(err: unknown): boolean {
  const name = (err as { name?: string })?.name ?? '';
  return (
    /HttpRequestError|TimeoutError|RpcRequestError|WebSocketRequestError/.test(name) ||
    /HttpRequestError|TimeoutError/.test(String((err as { cause?: { name?: string } })?.cause?.name ?? ''))
  );
}

export const chainUnavailable = (chainId: number, err?: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', `The RPC of chain ${chainId} does not answer`, {
    reason: 'CHAIN_UNAVAILABLE',
    cause: err,
    retryAfterSeconds: 5,
  });
