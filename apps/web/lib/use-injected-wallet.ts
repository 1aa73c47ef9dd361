'use client';
import { useConnect, useConnection, useConnectors } from 'wagmi';

export interface ConnectedWallet {
  address: `0x${string}`;
  chainId: number;
}

/**
 * The browser wallet through wagmi's injected connector (MetaMask and the like), connected on first
 * use: the one place that sign-in (EIP-4361) and signed votes (EIP-712) get their account from.
 */
export function useInjectedWallet() {
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();

  async function connected(): Promise<ConnectedWallet> {
    if (connection.status === 'connected' && connection.address) {
      return { address: connection.address, chainId: connection.chainId };
    }
    const connector = connectors.find((c) => c.type === 'injected') ?? connectors[0];
    if (!connector) throw new Error('No browser wallet was found.');
    const result = await connect.mutateAsync({ connector });
    const address = result.accounts[0];
    if (!address) throw new Error('The wallet shared no account.');
    return { address, chainId: result.chainId };
  }

  return {
    connected,
    address: connection.status === 'connected' ? connection.address : undefined,
  };
}
