/** what GET /profiles/by-address answers per named address (docs/users.md, "Names for addresses") */
export interface AddressProfile {
  address: string;
  userId: string;
  displayName: string;
  avatarUrl: string | null;
}

export type ProfileFetcher = (addresses: string[]) => Promise<AddressProfile[]>;

/** the API takes at most this many addresses per request */
export const MAX_ADDRESSES_PER_REQUEST = 100;

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const isHexAddress = (a: string) => HEX_ADDRESS.test(a);

interface Waiter {
  resolve: (p: AddressProfile | null) => void;
  reject: (e: unknown) => void;
}

/**
 * Collects the addresses asked for during one turn of the event loop (all the <Address> of a page render
 * in one commit) and looks them up with as few requests as the API's limit allows. Each `load` resolves
 * to the profile, or null when the address has no public one; a failed request rejects its addresses.
 * Addresses are compared in lower case, which the API accepts for any address.
 */
export function createProfileBatcher(fetchProfiles: ProfileFetcher, max = MAX_ADDRESSES_PER_REQUEST) {
  let pending = new Map<string, Waiter[]>();
  let scheduled = false;

  function flush() {
    const batch = pending;
    pending = new Map();
    scheduled = false;
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += max) {
      const chunk = keys.slice(i, i + max);
      const settle = (each: (w: Waiter, key: string) => void) => {
        for (const key of chunk) for (const w of batch.get(key) ?? []) each(w, key);
      };
      fetchProfiles(chunk).then(
        (items) => {
          const byKey = new Map(items.map((p) => [p.address.toLowerCase(), p]));
          settle((w, key) => w.resolve(byKey.get(key) ?? null));
        },
        (err: unknown) => settle((w) => w.reject(err)),
      );
    }
  }

  return {
    load(address: string): Promise<AddressProfile | null> {
      if (!isHexAddress(address)) return Promise.resolve(null);
      const key = address.toLowerCase();
      return new Promise((resolve, reject) => {
        const waiting = pending.get(key);
        if (waiting) waiting.push({ resolve, reject });
        else pending.set(key, [{ resolve, reject }]);
        if (!scheduled) {
          scheduled = true;
          setTimeout(flush, 0);
        }
      });
    },
  };
}

export type ProfileBatcher = ReturnType<typeof createProfileBatcher>;
