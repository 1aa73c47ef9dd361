'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPCClient } from '../trpc';
import { createProfileBatcher, isHexAddress, type ProfileBatcher } from './batcher';

type Client = ReturnType<typeof useTRPCClient>;
const batchers = new WeakMap<Client, ProfileBatcher>();

function batcherFor(client: Client): ProfileBatcher {
  let b = batchers.get(client);
  if (!b) {
    b = createProfileBatcher(async (addresses) => {
      const res = await client.users.byAddress.query({ addresses: addresses.join(',') });
      return res.items;
    });
    batchers.set(client, b);
  }
  return b;
}

/**
 * The public profile behind an address, or null (none, or not looked up yet). Every <Address> of a page
 * asks in the same turn, and the batcher sends them as one request; a failed lookup leaves the address
 * as it is (no retries, no error polling: a name is a nicety).
 */
export function useAddressProfile(address: string, enabled = true) {
  const client = useTRPCClient();
  const query = useQuery({
    queryKey: ['address-profile', address.toLowerCase()],
    queryFn: () => batcherFor(client).load(address),
    enabled: enabled && isHexAddress(address),
    staleTime: 5 * 60_000,
    retry: false,
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
  return query.data ?? null;
}
