'use client';
import { useConnect, useConnection, useConnectors, useSignTypedData } from 'wagmi';
import { useTRPCClient } from '../trpc';

export interface VoteToSign {
  daoId: string;
  proposalId: string;
  choice: string;
  comment: string;
}

/**
 * EIP-712 votes (docs/governance.md, "Signed votes"): the browser wallet signs `Vote { daoId, proposalId, choice, comment,
 * timestamp }` under the domain the API publishes (GET /eip712/vote), so no session is needed. The
 * wallet connects through wagmi's injected connector on first use.
 */
export function useVoteSigner() {
  const client = useTRPCClient();
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const signTypedData = useSignTypedData();

  async function connected(): Promise<`0x${string}`> {
    if (connection.status === 'connected' && connection.address) return connection.address;
    const connector = connectors.find((c) => c.type === 'injected') ?? connectors[0];
    if (!connector) throw new Error('No browser wallet was found.');
    const result = await connect.mutateAsync({ connector });
    const address = result.accounts[0];
    if (!address) throw new Error('The wallet shared no account.');
    return address;
  }

  async function sign(vote: VoteToSign) {
    const address = await connected();
    const spec = await client.governance.eip712.vote.query();
    // the domain type is derived from the domain itself; only the message types are passed
    const { EIP712Domain: _domain, ...types } = spec.types;
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await signTypedData.mutateAsync({
      account: address,
      domain: spec.domain,
      types,
      primaryType: spec.primaryType,
      message: { ...vote, timestamp: BigInt(timestamp) },
    });
    return { voterAddress: address, signature, timestamp };
  }

  return {
    sign,
    address: connection.status === 'connected' ? connection.address : undefined,
    connect: connected,
  };
}
