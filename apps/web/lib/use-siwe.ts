'use client';
import { useTRPCClient } from './trpc';
import { loadWallet, useInjectedWallet } from './use-injected-wallet';

export interface SignedSiwe {
  address: `0x${string}`;
  message: string;
  signature: `0x${string}`;
}

/**
 * Connects the browser wallet through wagmi's injected connector when needed, gets a single-use nonce
 * from the API and has the wallet sign an EIP-4361 message bound to this page's origin.
 */
export function useSiweSigner() {
  const client = useTRPCClient();
  const wallet = useInjectedWallet();

  async function sign(statement: string): Promise<SignedSiwe> {
    const { address, chainId } = await wallet.connected();
    const { nonce } = await client.auth.nonce.query();
    const { createSiweMessage, signMessage } = await loadWallet();
    const now = new Date();
    const message = createSiweMessage({
      domain: window.location.host,
      uri: window.location.origin,
      address,
      chainId,
      nonce,
      statement,
      version: '1',
      issuedAt: now,
      expirationTime: new Date(now.getTime() + 10 * 60_000),
    });
    const signature = await signMessage({ account: address, message });
    return { address, message, signature };
  }

  return { sign, address: wallet.address };
}
