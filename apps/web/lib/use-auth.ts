'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useEffect } from 'react';
import { setSessionToken, useSessionToken } from './session';
import { useTRPC } from './trpc';

/** The signed-in user and their wallets, or null when signed out. */
export function useMe() {
  const trpc = useTRPC();
  const token = useSessionToken();
  const me = useQuery({ ...trpc.auth.me.queryOptions(), enabled: token !== null, retry: false });
  const expired =
    me.error instanceof TRPCClientError && (me.error.data as { httpStatus?: number })?.httpStatus === 401;
  // a session that ended elsewhere (expired, signed out, suspended): forget it here too
  useEffect(() => {
    if (expired) setSessionToken(null);
  }, [expired]);
  return { token, signedIn: token !== null && !expired, me };
}

/** Store a new session and refetch everything as the new user. */
export function useStartSession() {
  const queryClient = useQueryClient();
  return (session: { token: string }) => {
    setSessionToken(session.token);
    void queryClient.resetQueries();
  };
}

export function useSignOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.auth.logout.mutationOptions({
      // the local session ends whatever the server said (it may already be gone)
      onSettled: () => {
        setSessionToken(null);
        void queryClient.resetQueries();
      },
    }),
  );
}
