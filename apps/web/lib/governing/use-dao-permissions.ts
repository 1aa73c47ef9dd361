'use client';
import type { AppRouter } from '@plenum/api';
import { useQueries } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useMyWallets } from '../governance/use-my-wallets';
import { useTRPC } from '../trpc';

export type DaoPermissions = inferRouterOutputs<AppRouter>['governance']['permissions']['get'];
export type DaoPower =
  | 'editSettings'
  | 'manageMembers'
  | 'manageRoles'
  | 'transferOwnership'
  | 'cancelAnyProposal';

/**
 * What the signed-in person may do in a DAO (docs/governance.md, "Roles"): governance.permissions.get
 * for each of their wallets. `actor(power)` is the wallet to act through, undefined when none may: the
 * pages show a button only when it works. Writes need a verified email, so an unverified account has none.
 */
export function useDaoPermissions(daoId: string) {
  const trpc = useTRPC();
  const mine = useMyWallets();
  const queries = useQueries({
    queries: mine.wallets.map((address) => ({
      ...trpc.governance.permissions.get.queryOptions({ daoId, address }),
      enabled: mine.verified,
    })),
  });
  const all = queries.flatMap((q) => (q.data ? [q.data] : []));
  // the strongest wallet first, as the server picks it when no actorAddress is given
  const rank = (p: DaoPermissions) =>
    ['owner', 'admin', 'moderator', 'author'].indexOf(p.role ?? '') + 1 || 9;
  const sorted = [...all].sort((a, b) => rank(a) - rank(b));
  return {
    loading: mine.loading || queries.some((q) => q.isPending && mine.verified),
    actor: (power: DaoPower): string | undefined =>
      mine.verified ? sorted.find((p) => p[power])?.address : undefined,
    permissions: sorted,
  };
}
