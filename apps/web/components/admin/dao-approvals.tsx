'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { dateTime } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Pager } from './pager';

const LIMIT = 25;

/** DAOs waiting for an admin (DAO_APPROVAL_REQUIRED), oldest requests last; approving makes one ACTIVE. */
export function DaoApprovals() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [approved, setApproved] = useState<string | null>(null);
  const pending = useQuery({
    ...trpc.governance.daos.list.queryOptions({ page, limit: LIMIT, status: 'PENDING' }),
    placeholderData: keepPreviousData,
  });
  const approve = useMutation(
    trpc.governance.daos.approve.mutationOptions({
      onSuccess: (dao) => {
        setApproved(dao.name);
        void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.list.queryKey() });
      },
    }),
  );
  return (
    <section aria-labelledby="approvals-heading" className="stack">
      <h2 id="approvals-heading">DAO approvals</h2>
      <p className="muted">
        When approval is required, a new DAO waits here as Pending and takes no members, proposals or votes
        until an administrator approves it.
      </p>
      {approved && <Notice testId="dao-approved">Approved {approved}: it is active now.</Notice>}
      {approve.isError && <ErrorAlert error={readable(approve.error)} />}
      {pending.isPending && <p aria-live="polite">Loading DAOs awaiting approval…</p>}
      {pending.isError && <ErrorAlert error={readable(pending.error)} />}
      {pending.data && pending.data.items.length === 0 && (
        <p data-testid="no-pending-daos">No DAO is waiting for approval.</p>
      )}
      {pending.data && pending.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="pending-daos" aria-busy={pending.isFetching}>
            <thead>
              <tr>
                <th scope="col">DAO</th>
                <th scope="col">Owner</th>
                <th scope="col">Requested</th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pending.data.items.map((d) => (
                <tr key={d.daoId} data-testid="pending-dao" data-dao-id={d.daoId}>
                  <td>
                    <Link href={`/daos/${d.daoId}`}>{d.name}</Link>
                  </td>
                  <td className="address">{d.ownerAddress}</td>
                  <td>{dateTime(d.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      disabled={approve.isPending}
                      aria-label={`Approve ${d.name}`}
                      onClick={() => {
                        setApproved(null);
                        approve.mutate({ daoId: d.daoId });
                      }}
                    >
                      Approve
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pending.data && (
        <Pager
          label="Pending DAO pages"
          page={page}
          totalPages={pending.data.pagination.totalPages}
          total={pending.data.pagination.total}
          onPage={setPage}
        />
      )}
    </section>
  );
}
