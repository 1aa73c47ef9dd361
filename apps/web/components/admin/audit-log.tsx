'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { dateTime } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Pager } from './pager';

const LIMIT = 25;

/** Who did what to whom, when and why; newest first. */
export function AuditLog() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const log = useQuery({
    ...trpc.adminUsers.auditLog.queryOptions({ page, limit: LIMIT }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="audit-heading" className="stack">
      <h2 id="audit-heading">Audit log</h2>
      {log.isPending && <p aria-live="polite">Loading the audit log…</p>}
      {log.isError && <ErrorAlert error={readable(log.error)} />}
      {log.data && log.data.items.length === 0 && <p>No admin actions yet.</p>}
      {log.data && log.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="audit-log" aria-busy={log.isFetching}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Whom</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {log.data.items.map((e) => (
                <tr key={e.id}>
                  <td>{dateTime(e.createdAt)}</td>
                  <td className="address">{e.actorEmail ?? (e.actorId ? e.actorId : 'operator (CLI)')}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className="address">
                    {e.targetType === 'user' ? (
                      <Link href={`/users/${e.targetId}`}>{e.targetId}</Link>
                    ) : e.targetType === 'dao' ? (
                      <Link href={`/daos/${e.targetId}`}>DAO {e.targetId}</Link>
                    ) : (
                      `${e.targetType} ${e.targetId}`
                    )}
                  </td>
                  <td>{e.reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.data && (
        <Pager
          label="Audit log pages"
          page={log.data.pagination.page}
          totalPages={log.data.pagination.totalPages}
          total={log.data.pagination.total}
          onPage={setPage}
        />
      )}
    </section>
  );
}
