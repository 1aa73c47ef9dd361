import { createConfig, http } from 'wagmi';
import {
  connect as connectAction,
  getConnection,
  reconnect,
  signMessage as signMessageAction,
  signTypedData as signTypedDataAction,
  watchConnection,
} from 'wagmi/actions';
import { arbitrum, base, mainnet, optimism, polygon, sepolia } from 'wagmi/chains';
import { injected } from 'wagmi/connectors';

/**
 * Loaded only where a wallet action happens (lib/wallet.ts imports it on first use), so pages without
 * one ship no wagmi or viem. Wallets are used only to sign EIP-4361 messages and EIP-712 votes: no RPC
 * call is made, so the transports are never used. The chains match the API's default SIWE_CHAIN_IDS;
 * the server decides which it accepts. This module runs in the browser only, so the config reads its
 * persisted state (the last connector) at creation.
 */
export const wagmiConfig = createConfig({
  chains: [mainnet, optimism, polygon, base, arbitrum, sepolia],
  connectors: [injected()],
  transports: {
    [mainnet.id]: http(),
    [optimism.id]: http(),
    [polygon.id]: http(),
    [base.id]: http(),
    [arbitrum.id]: http(),
    [sepolia.id]: http(),
  },
});

export interface ConnectedWallet {
  address: `0x${string}`;
  chainId: number;
}

declare module 'wagmi' {
  interface Register {
    config: typeof wagmiConfig;
  }
}

/** the connected account, or undefined; `listener` hears every change */
export function watchAddress(listener: (address: `0x${string}` | undefined) => void) {
  const current = getConnection(wagmiConfig);
  listener(current.status === 'connected' ? current.address : undefined);
  return watchConnection(wagmiConfig, {
    onChange: (c) => listener(c.status === 'connected' ? c.address : undefined),
  });
}

/** what WagmiProvider did on mount: reconnect the wallet this browser used last */
export async function reconnectLast() {
  await reconnect(wagmiConfig);
}

export async function connected(): Promise<ConnectedWallet> {
  const connection = getConnection(wagmiConfig);
  if (connection.status === 'connected' && connection.address) {
    return { address: connection.address, chainId: connection.chainId };
  }
  const connector = wagmiConfig.connectors.find((c) => c.type === 'injected') ?? wagmiConfig.connectors[0];
  if (!connector) throw new Error('No browser wallet was found.');
  const result = await connectAction(wagmiConfig, { connector });
  const address = result.accounts[0];
  if (!address) throw new Error('The wallet shared no account.');
  return { address, chainId: result.chainId };
}

export function signMessage(parameters: Parameters<typeof signMessageAction>[1]) {
  return signMessageAction(wagmiConfig, parameters);
}

export function signTypedData(parameters: Parameters<typeof signTypedDataAction>[1]) {
  return signTypedDataAction(wagmiConfig, parameters);
}

export { createSiweMessage } from 'viem/siwe';
