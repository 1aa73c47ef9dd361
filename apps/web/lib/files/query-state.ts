import type { UseQueryResult } from '@tanstack/react-query';

/**
 * <QueryState> (components/ui/query-state.tsx) types its query's error as Error, which a tRPC client
 * error is not (it lacks `name` in its type, not at run time). Until that prop accepts any error, the
 * Files, Account and Admin pages pass their queries through here.
 */
export const stateOf = <T>(query: UseQueryResult<T, unknown>) => query as unknown as UseQueryResult<T>;
