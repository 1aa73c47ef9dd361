'use client';
import { useTRPCClient } from '../trpc';
import { loadWallet, useInjectedWallet } from '../use-injected-wallet';

/** what a signed removal names as delegate (docs/governance.md, "Delegating") */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * the last timestamp this page signed per DAO and delegator: a signed change must be newer than the
 * delegator's last one (409 STALE_SIGNATURE), so a removal signed in the same second as the delegation
 * takes the next second (the server accepts a few minutes ahead)
 */
const lastSigned = new Map<string, number>();
function nextTimestamp(daoId: string, delegator: string) {
  const key = `${daoId}:${delegator.toLowerCase()}`;
  const timestamp = Math.max(Math.floor(Date.now() / 1000), (lastSigned.get(key) ?? 0) + 1);
  lastSigned.set(key, timestamp);
  return timestamp;
}

/**
 * A delegation change signed by the browser wallet (docs/governance.md, "Delegating"): `Delegation {
 * daoId, delegatorAddress, delegateAddress, timestamp }` under the domain the API publishes (GET
 * /eip712/delegation), timestamp now; a removal names the zero address. No session needed, as signed votes.
 */
export function useDelegationSigner() {
  const client = useTRPCClient();
  const wallet = useInjectedWallet();

  const connect = async () => (await wallet.connected()).address;

  async function sign(change: { daoId: string; delegateAddress: string }, delegator: `0x${string}`) {
    const spec = await client.governance.delegation.typedData.query();
    // the domain type is derived from the domain itself; only the message types are passed
    const { EIP712Domain: _domain, ...types } = spec.types;
    const timestamp = nextTimestamp(change.daoId, delegator);
    const { signTypedData } = await loadWallet();
    const signature = await signTypedData({
      account: delegator,
      domain: spec.domain,
      types,
      primaryType: spec.primaryType,
      message: { ...change, delegatorAddress: delegator, timestamp: BigInt(timestamp) },
    });
    return { signature, timestamp };
  }

  return { sign, connect, address: wallet.address };
}
