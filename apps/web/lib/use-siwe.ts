'use client';
import { createSiweMessage } from 'viem/siwe';
import { useConnect, useConnection, useConnectors, useSignMessage } from 'wagmi';
import { useTRPCClient } from './trpc';

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
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const signMessage = useSignMessage();

  async function connected(): Promise<{ address: `0x${string}`; chainId: number }> {
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

  async function sign(statement: string): Promise<SignedSiwe> {
    const { address, chainId } = await connected();
    const { nonce } = await client.auth.nonce.query();
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
    const signature = await signMessage.mutateAsync({ account: address, message });
    return { address, message, signature };
  }

  return { sign, address: connection.address };
}
