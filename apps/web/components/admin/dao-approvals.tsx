'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { RejectDao, Rejected } from '../governing/reject-dao';
import { Address } from '../ui/address';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { DataTable } from '../ui/data-table';
import { DateTime } from '../ui/date-time';
import { EmptyState } from '../ui/empty-state';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';

const LIMIT = 25;

/**
 * DAOs waiting for an admin (DAO_APPROVAL_REQUIRED); approving makes one ACTIVE, rejecting (with a reason
 * the owner is mailed) INACTIVE. Cards below 768 px.
 */
export function DaoApprovals() {
  const t = useTranslations('admin.daos');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [approved, setApproved] = useState<string | null>(null);
  const [rejected, setRejected] = useState<string | null>(null);
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
    <section aria-labelledby="approvals-heading" className="grid min-w-0 gap-4">
      <h2 id="approvals-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 text-muted-foreground">{t('intro')}</p>
      {approved && (
        <Alert variant="success" role="status" data-testid="dao-approved">
          <AlertDescription>{t('approved', { name: approved })}</AlertDescription>
        </Alert>
      )}
      {rejected && <Rejected name={rejected} />}
      {approve.isError && (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{readable(approve.error).message}</AlertDescription>
        </Alert>
      )}
      <QueryState query={pending}>
        {(data) => (
          <div className="grid min-w-0 gap-3" aria-busy={pending.isFetching}>
            <DataTable
              caption={t('caption')}
              captionHidden
              rows={data.items}
              rowKey={(d) => d.daoId}
              rowProps={(d) => ({ 'data-testid': 'pending-dao', 'data-dao-id': d.daoId })}
              empty={<EmptyState icon={CheckCircle2} title={t('empty')} testId="no-pending-daos" />}
              columns={[
                {
                  id: 'name',
                  header: t('columns.dao'),
                  cell: (d) => (
                    <Link href={`/daos/${d.daoId}`} className="break-words">
                      {d.name}
                    </Link>
                  ),
                },
                {
                  id: 'owner',
                  header: t('columns.owner'),
                  cell: (d) => <Address address={d.ownerAddress} />,
                },
                {
                  id: 'requested',
                  header: t('columns.requested'),
                  cell: (d) => <DateTime value={d.createdAt} />,
                },
                {
                  id: 'action',
                  header: <span className="sr-only">{t('columns.action')}</span>,
                  label: '',
                  cell: (d) => (
                    <div className="flex flex-wrap gap-2">
                      <Button
                        size="sm"
                        disabled={approve.isPending}
                        aria-label={t('approveNamed', { name: d.name })}
                        onClick={() => {
                          setApproved(null);
                          setRejected(null);
                          approve.mutate({ daoId: d.daoId });
                        }}
                      >
                        {t('approve')}
                      </Button>
                      <RejectDao
                        dao={d}
                        onRejected={() => {
                          setApproved(null);
                          setRejected(d.name);
                          void queryClient.invalidateQueries({
                            queryKey: trpc.governance.daos.list.queryKey(),
                          });
                        }}
                      />
                    </div>
                  ),
                },
              ]}
            />
            <Pager
              label={t('pages')}
              page={page}
              pageCount={data.pagination.totalPages}
              onPageChange={setPage}
            />
          </div>
        )}
      </QueryState>
    </section>
  );
}
