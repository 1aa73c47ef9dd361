'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { Button } from '../ui/button';
import { type Column, DataTable } from '../ui/data-table';
import { DateTime } from '../ui/date-time';
import { EmptyState } from '../ui/empty-state';
import { Input } from '../ui/input';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';
import { Select } from '../ui/select';
import { FilterChips } from './filter-chips';
import { SortButton, type SortKey, type SortState } from './sort-button';
import { UserPanel } from './user-panel';
import type { Role, Status, UserRow } from './user-row';
import { UserStatusBadge } from './user-status';

const LIMIT = 20;
const SORT_KEYS: SortKey[] = ['createdAt', 'lastLoginAt', 'name', 'email', 'status', 'role'];

/**
 * Users with filter chips (status, role), search over names and email, sortable columns and pages of 20.
 * Below 768 px each row is a card; a row's "Details" opens the side panel with the user's actions.
 */
export function UsersTable() {
  const t = useTranslations('admin.users');
  const trpc = useTRPC();
  const { me } = useMe();
  const [status, setStatus] = useState<Status | null>(null);
  const [role, setRole] = useState<Role | null>(null);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ key: 'createdAt', order: 'desc' });
  const [page, setPage] = useState(1);
  const [opened, setOpened] = useState<UserRow | null>(null);
  const input = {
    page,
    limit: LIMIT,
    sort: sort.key,
    order: sort.order,
    ...(status ? { status } : {}),
    ...(role ? { role } : {}),
    ...(search ? { search } : {}),
  };
  const list = useQuery({ ...trpc.adminUsers.list.queryOptions(input), placeholderData: keepPreviousData });
  // the row as listed now (fresh after an action), or as it was when opened if a filter hides it since
  const listed = list.data?.users.find((u) => u.id === opened?.id);
  const open = listed && !list.isFetching ? listed : opened;

  function submitSearch(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSearch(String(new FormData(e.currentTarget).get('search') ?? '').trim());
    setPage(1);
  }
  const sortBy = (key: SortKey) => {
    setSort((s) => ({ key, order: s.key === key && s.order === 'asc' ? 'desc' : 'asc' }));
    setPage(1);
  };
  const header = (key: SortKey, label: string) => (
    <SortButton sortKey={key} label={label} state={sort} onSort={sortBy} />
  );
  const ariaSort = (key: SortKey) =>
    sort.key === key ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';

  const columns: Column<UserRow>[] = [
    {
      id: 'name',
      header: header('name', t('columns.name')),
      label: t('columns.name'),
      sort: ariaSort('name'),
      cell: (u) => (
        <span className="font-medium break-words">
          {u.firstName} {u.lastName}
        </span>
      ),
    },
    {
      id: 'email',
      // on a phone the label goes above the address, which then has the card's full width
      className: 'max-md:grid-cols-1 max-md:gap-0',
      header: header('email', t('columns.email')),
      label: t('columns.email'),
      sort: ariaSort('email'),
      // an address breaks only where it must (overflow-wrap), never mid-word where it fits
      cell: (u) => <span className="[overflow-wrap:break-word]">{u.email}</span>,
    },
    {
      id: 'status',
      header: header('status', t('columns.status')),
      label: t('columns.status'),
      sort: ariaSort('status'),
      cell: (u) => <UserStatusBadge status={u.status} />,
    },
    {
      id: 'role',
      header: header('role', t('columns.role')),
      label: t('columns.role'),
      sort: ariaSort('role'),
      cell: (u) => t(`role.${u.role}`),
    },
    {
      id: 'createdAt',
      header: header('createdAt', t('columns.joined')),
      label: t('columns.joined'),
      sort: ariaSort('createdAt'),
      cell: (u) => <DateTime value={u.createdAt} />,
    },
    {
      id: 'lastLoginAt',
      header: header('lastLoginAt', t('columns.lastSignIn')),
      label: t('columns.lastSignIn'),
      sort: ariaSort('lastLoginAt'),
      cell: (u) => (u.lastLoginAt ? <DateTime value={u.lastLoginAt} /> : t('never')),
    },
    {
      id: 'actions',
      header: <span className="sr-only">{t('columns.actions')}</span>,
      label: '',
      cell: (u) => (
        <Button
          variant="outline"
          size="sm"
          aria-label={t('details', { email: u.email })}
          onClick={(e) => {
            e.stopPropagation();
            setOpened(u);
          }}
        >
          {t('detailsShort')}
        </Button>
      ),
    },
  ];

  return (
    <section aria-labelledby="users-heading" className="grid min-w-0 gap-4">
      <h2 id="users-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <search className="min-w-0">
        <form className="flex min-w-0 flex-wrap items-end gap-2" onSubmit={submitSearch}>
          <label htmlFor="user-search" className="w-full text-sm font-medium">
            {t('search')}
          </label>
          <Input
            id="user-search"
            name="search"
            type="search"
            maxLength={200}
            defaultValue={search}
            className="max-w-sm flex-1"
          />
          <Button type="submit" variant="secondary">
            {t('searchButton')}
          </Button>
        </form>
      </search>
      <FilterChips<Status>
        label={t('filters.status')}
        value={status}
        options={(['active', 'pending_verification', 'suspended'] as const).map((s) => ({
          value: s,
          label: t(`status.${s}`),
        }))}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
      />
      <FilterChips<Role>
        label={t('filters.role')}
        value={role}
        options={(['user', 'admin'] as const).map((r) => ({ value: r, label: t(`role.${r}`) }))}
        onChange={(v) => {
          setRole(v);
          setPage(1);
        }}
      />
      {/* on a phone the column headers are hidden (rows are cards): sorting is a select and an order toggle */}
      <div className="flex flex-wrap items-center gap-2 md:hidden">
        <label htmlFor="user-sort" className="shrink-0 text-sm font-medium whitespace-nowrap">
          {t('sortLabel')}
        </label>
        <Select
          id="user-sort"
          className="h-9 w-auto text-sm"
          wrapperClassName="w-auto"
          value={sort.key}
          onChange={(e) => {
            setSort((s) => ({ ...s, key: e.target.value as SortKey }));
            setPage(1);
          }}
        >
          {SORT_KEYS.map((k) => (
            <option key={k} value={k}>
              {t(`columns.${k === 'createdAt' ? 'joined' : k === 'lastLoginAt' ? 'lastSignIn' : k}`)}
            </option>
          ))}
        </Select>
        <Button
          variant="outline"
          size="sm"
          aria-pressed={sort.order === 'desc'}
          onClick={() => setSort((s) => ({ ...s, order: s.order === 'asc' ? 'desc' : 'asc' }))}
        >
          {t('descending')}
        </Button>
      </div>
      <QueryState query={list}>
        {(data) => (
          <div className="grid min-w-0 gap-3" data-testid="users-table" aria-busy={list.isFetching}>
            <DataTable
              caption={t('caption', { count: data.pagination.total })}
              captionHidden
              columns={columns}
              rows={data.users}
              rowKey={(u) => u.id}
              rowProps={(u) => ({ 'data-testid': 'user-row', 'data-email': u.email })}
              onRowClick={setOpened}
              empty={<EmptyState icon={Users} title={t('empty')} testId="no-users" />}
            />
            <Pager
              label={t('pages')}
              page={data.pagination.page}
              pageCount={data.pagination.totalPages}
              onPageChange={setPage}
            />
          </div>
        )}
      </QueryState>
      <UserPanel
        user={open}
        self={open?.id === me.data?.user.id}
        onStatus={(s) => setOpened((o) => (o ? { ...o, status: s } : o))}
        onOpenChange={(next) => {
          if (!next) setOpened(null);
        }}
      />
    </section>
  );
}
