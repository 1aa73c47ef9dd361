'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { governanceError } from '../../lib/governance/errors';
import type { DaoStatus } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Pager, SelectField } from './controls';
import { DaoList } from './dao-list';
import './governance.css';

const PAGE_SIZE = 20;

/** Every DAO, newest first, paged, with a status filter. */
export function DaoDirectory() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DaoStatus | ''>('');
  const list = useQuery({
    ...trpc.governance.daos.list.queryOptions({ page, limit: PAGE_SIZE, ...(status ? { status } : {}) }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="stack gov">
      <header className="page-header">
        <h1>DAOs</h1>
        <Link className="button" href="/daos/new">
          Create a DAO
        </Link>
      </header>
      <div className="narrow">
        <SelectField
          label="Status"
          name="status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as DaoStatus | '');
            setPage(1);
          }}
        >
          <option value="">All</option>
          <option value="ACTIVE">Active</option>
          <option value="INACTIVE">Inactive</option>
          <option value="PENDING">Awaiting approval</option>
        </SelectField>
      </div>
      {list.isError && <ErrorAlert error={governanceError(list.error)} />}
      {list.isPending && <p>Loading…</p>}
      {list.data && (
        <>
          <p className="muted small" aria-live="polite">
            {list.data.pagination.total} {list.data.pagination.total === 1 ? 'DAO' : 'DAOs'}
          </p>
          <DaoList daos={list.data.items} empty="No DAO yet." testId="dao-list" />
          <Pager
            label="DAO pages"
            page={page}
            totalPages={list.data.pagination.totalPages}
            onPage={setPage}
          />
        </>
      )}
    </div>
  );
}
