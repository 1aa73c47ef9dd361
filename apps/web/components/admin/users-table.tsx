'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { dateTime } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { ErrorAlert } from '../alert';
import { Pager } from './pager';
import { UserActions } from './user-actions';

type Status = 'pending_verification' | 'active' | 'suspended';
type Role = 'user' | 'admin';
const LIMIT = 20;

/** Users with status/role filters, search over names and email, and pages of 20. */
export function UsersTable() {
  const trpc = useTRPC();
  const { me } = useMe();
  const [status, setStatus] = useState<Status | ''>('');
  const [role, setRole] = useState<Role | ''>('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const input = {
    page,
    limit: LIMIT,
    ...(status ? { status } : {}),
    ...(role ? { role } : {}),
    ...(search ? { search } : {}),
  };
  const list = useQuery({ ...trpc.adminUsers.list.queryOptions(input), placeholderData: keepPreviousData });

  function submitSearch(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSearch(String(new FormData(e.currentTarget).get('search') ?? '').trim());
    setPage(1);
  }

  return (
    <section aria-labelledby="users-heading" className="stack">
      <h2 id="users-heading">Users</h2>
      <div className="filters">
        <search>
          <form className="search-form" onSubmit={submitSearch}>
            <label htmlFor="user-search">Search name or email</label>
            <div className="copy-row">
              <input id="user-search" name="search" type="search" maxLength={200} defaultValue={search} />
              <button type="submit">Search</button>
            </div>
          </form>
        </search>
        <div className="field">
          <label htmlFor="status-filter">Status</label>
          <select
            id="status-filter"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Status | '');
              setPage(1);
            }}
          >
            <option value="">Any</option>
            <option value="active">Active</option>
            <option value="pending_verification">Pending verification</option>
            <option value="suspended">Suspended</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="role-filter">Role</label>
          <select
            id="role-filter"
            value={role}
            onChange={(e) => {
              setRole(e.target.value as Role | '');
              setPage(1);
            }}
          >
            <option value="">Any</option>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        </div>
      </div>
      {list.isPending && <p aria-live="polite">Loading users…</p>}
      {list.isError && <ErrorAlert error={readable(list.error)} />}
      {list.data && list.data.users.length === 0 && <p data-testid="no-users">No users match.</p>}
      {list.data && list.data.users.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="users-table" aria-busy={list.isFetching}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((u) => (
                <tr key={u.id} data-testid="user-row" data-email={u.email}>
                  <td>
                    <Link href={`/users/${u.id}`}>
                      {u.firstName} {u.lastName}
                    </Link>
                  </td>
                  <td className="address">{u.email}</td>
                  <td>
                    <span className={`badge user-${u.status}`} data-testid="user-status">
                      {u.status.replace('_', ' ')}
                    </span>
                  </td>
                  <td>{u.role}</td>
                  <td>{dateTime(u.createdAt)}</td>
                  <td>{dateTime(u.lastLoginAt)}</td>
                  <td>
                    <UserActions user={u} self={u.id === me.data?.user.id} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && (
        <Pager
          label="User pages"
          page={list.data.pagination.page}
          totalPages={list.data.pagination.totalPages}
          total={list.data.pagination.total}
          onPage={setPage}
        />
      )}
    </section>
  );
}
