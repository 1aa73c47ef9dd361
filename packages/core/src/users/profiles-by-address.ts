import { users, wallets } from '@plenum/db';
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';

export interface AddressProfile {
  address: string;
  userId: string;
  displayName: string;
  avatarUrl: string | null;
}

/**
 * GET /profiles/by-address (docs/users.md, "Names for addresses"): for each address that is a wallet of an
 * account whose profile anyone may see, the account's id, name and picture. The rule is the public
 * profile's (getPublicProfile) as seen by someone else: `public` visibility and ALLOW_PUBLIC_PROFILES;
 * deleted and suspended accounts are left out. Nothing depends on who asks, so the answer is the same for
 * everyone. Addresses are matched ignoring case; a malformed one or a wrong EIP-55 checksum is a 400.
 */
export async function profilesByAddress(
  svc: Services,
  params: { addresses: readonly string[] },
): Promise<{ items: AddressProfile[] }> {
  const wanted = [...new Set(params.addresses.map((a) => canonicalAddress(a, 'addresses')))];
  const cfg = svc.config.users;
  if (!cfg.allowPublicProfiles || wanted.length === 0) return { items: [] };
  const rows = await svc.db
    .select({
      address: wallets.address,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      avatarUrl: users.avatarUrl,
    })
    .from(wallets)
    .innerJoin(users, eq(users.id, wallets.userId))
    .where(
      and(
        inArray(wallets.address, wanted),
        isNull(users.deletedAt),
        ne(users.status, 'suspended'),
        eq(users.profileVisibility, 'public'),
      ),
    );
  const byAddress = new Map(rows.map((r) => [r.address, r]));
  return {
    items: wanted.flatMap((address) => {
      const r = byAddress.get(address);
      if (!r) return [];
      return [
        {
          address,
          userId: r.userId,
          displayName: `${r.firstName} ${r.lastName}`.trim(),
          avatarUrl: cfg.enableProfilePictures ? r.avatarUrl : null,
        },
      ];
    }),
  };
}
