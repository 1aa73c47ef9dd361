/** What `<QueryState>` reads of a query (components/ui/query-state.tsx). */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
  failureCount?: number;
  failureReason?: unknown;
}

/**
 * Several reads shown as one (the dashboard's DAO lists of every wallet): there is data only once every
 * read has some, so a failed read is never drawn as an empty list; "Try again" retries the ones that
 * failed.
 */
export function combineQueries<Q extends QueryLike<unknown>>(queries: Q[]): QueryLike<Q[]> {
  const failed = queries.filter((q) => q.isError);
  const reason = queries.find((q) => (q.failureCount ?? 0) > 0);
  return {
    data: queries.every((q) => q.data !== undefined) ? queries : undefined,
    error: failed[0]?.error ?? null,
    isError: failed.length > 0,
    isFetching: queries.some((q) => q.isFetching),
    refetch: () => Promise.all((failed.length ? failed : queries).map((q) => q.refetch())),
    failureCount: Math.max(0, ...queries.map((q) => q.failureCount ?? 0)),
    failureReason: reason?.failureReason,
  };
}
