'use client';
import { useTRPCClient } from '../trpc';
import { loadWallet, useInjectedWallet } from '../use-injected-wallet';

export interface VoteToSign {
  daoId: string;
  proposalId: string;
  choice: string;
  comment: string;
}

/**
 * EIP-712 votes (docs/governance.md, "Signed votes"): the browser wallet signs `Vote { daoId, proposalId, choice, comment,
 * timestamp }` under the domain the API publishes (GET /eip712/vote), so no session is needed. The
 * wallet connects through wagmi's injected connector on first use (wagmi loads then).
 */
export function useVoteSigner() {
  const client = useTRPCClient();
  const wallet = useInjectedWallet();

  const connect = async () => (await wallet.connected()).address;

  /** `address`: the wallet's account when the caller has just connected it (wagmi's state lags a render) */
  async function sign(vote: VoteToSign, connectedAddress?: `0x${string}`) {
    const address = connectedAddress ?? (await connect());
    const spec = await client.governance.eip712.vote.query();
    // the domain type is derived from the domain itself; only the message types are passed
    const { EIP712Domain: _domain, ...types } = spec.types;
    const timestamp = Math.floor(Date.now() / 1000);
    const { signTypedData } = await loadWallet();
    const signature = await signTypedData({
      account: address,
      domain: spec.domain,
      types,
      primaryType: spec.primaryType,
      message: { ...vote, timestamp: BigInt(timestamp) },
    });
    return { voterAddress: address, signature, timestamp };
  }

  return { sign, address: wallet.address, connect };
}
