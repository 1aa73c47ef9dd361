'use client';
import { useMe } from '../use-auth';
import { useMounted } from '../use-mounted';
import { sameAddress } from './types';

/** The signed-in user's wallets: governance acts for an address, and only for one of these. */
export function useMyWallets() {
  const { signedIn, me } = useMe();
  // the stored session is unknown on the server and while hydrating: "loading", not "signed out"
  const mounted = useMounted();
  const wallets = me.data?.wallets.map((w) => w.address) ?? [];
  return {
    signedIn,
    loading: !mounted || (signedIn && me.isPending),
    wallets,
    /** governance writes need a verified email (403 EMAIL_NOT_VERIFIED otherwise) */
    verified: me.data ? me.data.user.emailVerified : false,
    isAdmin: me.data?.user.role === 'admin',
    isMine: (address: string | null | undefined) => wallets.some((w) => sameAddress(w, address)),
    /** the read behind all this: while it fails, `wallets` is empty for want of an answer, not of wallets */
    me,
  };
}
