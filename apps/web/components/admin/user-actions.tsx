'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';

interface Row {
  id: string;
  email: string;
  status: 'pending_verification' | 'active' | 'suspended';
}

/** Suspend (a reason is required and goes to the audit log) or reactivate one user. */
export function UserActions({ user, self }: { user: Row; self: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<DisplayError | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.adminUsers.pathKey() }),
      queryClient.invalidateQueries({ queryKey: ['admin'] }),
    ]);
  const suspend = useMutation(
    trpc.adminUsers.suspend.mutationOptions({
      onSuccess: () => {
        setAsking(false);
        return refresh();
      },
      onError: (e) => setError(readable(e)),
    }),
  );
  const reactivate = useMutation(
    trpc.adminUsers.reactivate.mutationOptions({ onSuccess: refresh, onError: (e) => setError(readable(e)) }),
  );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const reason = String(new FormData(e.currentTarget).get('reason') ?? '').trim();
    if (!reason) return setError({ message: 'Give a reason: it is recorded in the audit log.', fields: {} });
    suspend.mutate({ id: user.id, reason });
  }

  if (self) return <span className="muted">you</span>;
  return (
    <div className="stack user-actions">
      {user.status === 'suspended' ? (
        <button
          type="button"
          className="secondary"
          disabled={reactivate.isPending}
          aria-label={`Reactivate ${user.email}`}
          onClick={() => {
            setError(null);
            reactivate.mutate({ id: user.id });
          }}
        >
          Reactivate
        </button>
      ) : asking ? (
        <form className="stack" onSubmit={submit}>
          <label htmlFor={reasonId}>Reason for suspending {user.email}</label>
          <textarea id={reasonId} name="reason" maxLength={1000} required />
          <div className="actions">
            <button type="submit" className="danger" disabled={suspend.isPending}>
              Suspend
            </button>
            <button type="button" className="secondary" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="secondary"
          aria-label={`Suspend ${user.email}`}
          onClick={() => {
            setError(null);
            setAsking(true);
          }}
        >
          Suspend…
        </button>
      )}
      <ErrorAlert error={error} />
    </div>
  );
}
