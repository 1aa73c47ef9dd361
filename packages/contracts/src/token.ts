// viem helpers over a local chain: deploy the test tokens, mint, transfer, delegate, mine, Multicall3.
// Every client has cacheTime 0 (viem caches eth_blockNumber for 4 s by default, which makes a test that
// mines and then reads "latest" see an old block) and a short polling interval.
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hash,
  http,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Anvil } from './anvil.ts';
import { artifactFor, plenumTokenAbi, plenumVotesTokenAbi, type TokenStandard } from './artifacts.ts';
import { MULTICALL3_ADDRESS, MULTICALL3_RUNTIME } from './multicall3.ts';

/** What the helpers need of a chain: its RPC, its id and funded accounts (an {@link Anvil} has all three). */
export type ChainHandle = Pick<Anvil, 'url' | 'chainId' | 'accounts'>;

export interface Clients {
  chain: Chain;
  public: PublicClient<Transport, Chain>;
  wallet: WalletClient<Transport, Chain>;
  test: TestClient<'anvil', Transport, Chain>;
}

const POLLING_INTERVAL_MS = 50;

/**
 * A viem chain for the handle. With `multicall3: true` it names Multicall3 at its canonical address, so that
 * `multicall()` uses it without `multicallAddress` (deploy it first with {@link deployMulticall3}).
 */
export function anvilChain(
  handle: Pick<ChainHandle, 'url' | 'chainId'>,
  options: { multicall3?: boolean } = {},
) {
  return defineChain({
    id: handle.chainId,
    name: `anvil ${handle.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [handle.url] } },
    ...(options.multicall3 ? { contracts: { multicall3: { address: MULTICALL3_ADDRESS } } } : {}),
  });
}

const cache = new WeakMap<object, Clients>();

/** Public, wallet and test (anvil_*) clients for the handle, cached per handle; all with cacheTime 0. */
export function clients(handle: ChainHandle): Clients {
  const cached = cache.get(handle);
  if (cached) return cached;
  const chain = anvilChain(handle);
  const common = { chain, transport: http(handle.url), cacheTime: 0, pollingInterval: POLLING_INTERVAL_MS };
  const made: Clients = {
    chain,
    public: createPublicClient(common),
    wallet: createWalletClient(common),
    test: createTestClient({ ...common, mode: 'anvil' }),
  };
  cache.set(handle, made);
  return made;
}

async function confirmed(handle: ChainHandle, hash: Hash, what: string): Promise<TransactionReceipt> {
  const receipt = await clients(handle).public.waitForTransactionReceipt({
    hash,
    pollingInterval: POLLING_INTERVAL_MS,
  });
  if (receipt.status !== 'success') throw new Error(`${what}: transaction ${hash} reverted`);
  return receipt;
}

function ownerOf(handle: ChainHandle, account?: Account): Account {
  const owner = account ?? handle.accounts[0];
  if (!owner) throw new Error('no account to send from');
  return owner;
}

export interface DeployTokenOptions {
  /** `erc20` deploys PlenumToken (weights = balanceOf at a block); `erc20-votes` deploys PlenumVotesToken
   * (weights = getPastVotes at a block, counted only for delegated balances). */
  standard: TokenStandard;
  name: string;
  symbol: string;
  /** The deployer, who alone can mint; default accounts[0]. */
  account?: PrivateKeyAccount;
}

/** Deploys a test token and returns its address once the deployment is mined. */
export async function deployToken(handle: ChainHandle, options: DeployTokenOptions): Promise<Address> {
  const { abi, bytecode } = artifactFor[options.standard];
  const account = ownerOf(handle, options.account);
  const hash = await clients(handle).wallet.deployContract({
    abi,
    bytecode,
    args: [options.name, options.symbol],
    account,
  });
  const receipt = await confirmed(handle, hash, `deploy ${options.standard} ${options.symbol}`);
  if (!receipt.contractAddress) throw new Error(`deploy ${options.symbol}: no contract address in receipt`);
  return receipt.contractAddress;
}

/** Mints `amount` (base units; 18 decimals, so use parseUnits(x, 18)) to `to`. `account` must be the
 * deployer (default accounts[0]). Works for both standards. */
export async function mint(
  handle: ChainHandle,
  token: Address,
  to: Address,
  amount: bigint,
  options: { account?: PrivateKeyAccount } = {},
): Promise<TransactionReceipt> {
  const hash = await clients(handle).wallet.writeContract({
    address: token,
    abi: plenumTokenAbi,
    functionName: 'mint',
    args: [to, amount],
    account: ownerOf(handle, options.account),
  });
  return confirmed(handle, hash, `mint ${amount} to ${to}`);
}

/** ERC20 transfer from `from` (a funded local account) to `to`. */
export async function transfer(
  handle: ChainHandle,
  token: Address,
  args: { from: PrivateKeyAccount; to: Address; amount: bigint },
): Promise<TransactionReceipt> {
  const hash = await clients(handle).wallet.writeContract({
    address: token,
    abi: plenumTokenAbi,
    functionName: 'transfer',
    args: [args.to, args.amount],
    account: args.from,
  });
  return confirmed(handle, hash, `transfer ${args.amount} from ${args.from.address} to ${args.to}`);
}

/** ERC20Votes delegate: `from` delegates its voting power to `to` (itself to make its own balance count). */
export async function delegate(
  handle: ChainHandle,
  token: Address,
  args: { from: PrivateKeyAccount; to: Address },
): Promise<TransactionReceipt> {
  const hash = await clients(handle).wallet.writeContract({
    address: token,
    abi: plenumVotesTokenAbi,
    functionName: 'delegate',
    args: [args.to],
    account: args.from,
  });
  return confirmed(handle, hash, `delegate ${args.from.address} → ${args.to}`);
}

/** Mines `blocks` empty blocks (anvil_mine) and returns the new head's number. */
export async function mine(handle: ChainHandle, blocks = 1): Promise<bigint> {
  await clients(handle).test.mine({ blocks });
  return blockNumber(handle);
}

/** The current head's number (uncached). */
export async function blockNumber(handle: ChainHandle): Promise<bigint> {
  return clients(handle).public.getBlockNumber({ cacheTime: 0 });
}

/**
 * Puts the canonical Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11 with anvil_setCode and returns
 * that address. Note that setCode changes the current state only, it mines no block, so multicalls at
 * blocks before the current one still find no code there: call it before the blocks you read.
 */
export async function deployMulticall3(handle: ChainHandle): Promise<Address> {
  const { test, public: pub } = clients(handle);
  await test.setCode({ address: MULTICALL3_ADDRESS, bytecode: MULTICALL3_RUNTIME });
  const code = await pub.getCode({ address: MULTICALL3_ADDRESS });
  if (code?.toLowerCase() !== MULTICALL3_RUNTIME.toLowerCase()) {
    throw new Error('deployMulticall3: the code read back differs from the code set');
  }
  return MULTICALL3_ADDRESS;
}
