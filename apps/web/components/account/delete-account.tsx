'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { readable } from '../../lib/files/readable';
import { setSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { applyTheme } from './theme';

/**
 * Soft-deletes the account after an explicit confirmation. When another part of Plenum blocks it
 * (409, e.g. the owner of an ACTIVE DAO), the server's reasons are listed.
 */
export function DeleteAccount({ userId, email }: { userId: string; email: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const confirmId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess: () => {
        setSessionToken(null);
        applyTheme(null);
        void queryClient.resetQueries();
        router.push('/');
      },
    }),
  );
  const confirmed = typed.trim().toLowerCase() === email.toLowerCase();

  return (
    <section aria-labelledby="delete-heading" className="stack danger-zone">
      <h2 id="delete-heading">Delete account</h2>
      <p>
        Your sessions and access tokens end at once and you can no longer sign in. Your email address stays
        reserved.
      </p>
      {!open ? (
        <button type="button" className="danger" onClick={() => setOpen(true)}>
          Delete my account…
        </button>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (confirmed) remove.mutate({ id: userId });
          }}
        >
          <div className="field">
            <label htmlFor={confirmId}>Type your email address ({email}) to confirm</label>
            <input
              id={confirmId}
              type="text"
              autoComplete="off"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
          <div className="actions">
            <button type="submit" className="danger" disabled={!confirmed || remove.isPending}>
              {remove.isPending ? 'Deleting…' : 'Delete my account for good'}
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {remove.isError && <ErrorAlert error={readable(remove.error)} />}
    </section>
  );
}
