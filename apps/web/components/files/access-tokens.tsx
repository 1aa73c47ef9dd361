'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import type { DisplayError } from '../../lib/errors';
import { dateTime } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Field } from '../field';
import { CreatedToken } from './created-token';

/** an <input type="date"> day → the end of that day in UTC, as the API wants an offset */
const endOfDay = (day: string) => (day ? `${day}T23:59:59Z` : undefined);

/** Personal access tokens for programs such as Kubo's remote pinning: create, list, revoke. */
export function AccessTokens() {
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const list = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(
    trpc.tokens.create.mutationOptions({ onSuccess: refresh, onError: (e) => setError(readable(e)) }),
  );
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({ onSuccess: refresh, onError: (e) => setError(readable(e)) }),
  );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const name = String(form.get('name') ?? '').trim();
    if (!name) return setError({ message: 'Give the token a name.', fields: { name: ['required'] } });
    const expiresAt = endOfDay(String(form.get('expires') ?? ''));
    create.mutate({ name, ...(expiresAt ? { expiresAt } : {}) }, { onSuccess: () => formEl.reset() });
  }

  return (
    <section aria-labelledby="tokens-heading" className="stack">
      <h2 id="tokens-heading">Access tokens</h2>
      <p className="muted">
        Programs use a token as <code>Authorization: Bearer …</code>. To pin from a Kubo node:{' '}
        <code className="address">ipfs pin remote service add plenum {apiUrl} YOUR_TOKEN</code>
      </p>
      <form className="stack" onSubmit={submit} noValidate>
        <div className="row">
          <Field label="Token name" name="name" maxLength={100} errors={error?.fields.name} />
          <Field label="Expires on (optional)" name="expires" type="date" errors={error?.fields.expiresAt} />
        </div>
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
      </form>
      <ErrorAlert error={error} />
      {create.data && <CreatedToken token={create.data.token} name={create.data.name} />}
      {list.isError && <ErrorAlert error={readable(list.error)} />}
      {list.data && list.data.items.length === 0 && <p>No access tokens.</p>}
      {list.data && list.data.items.length > 0 && (
        <ul className="wallets" data-testid="tokens">
          {list.data.items.map((t) => (
            <li key={t.id} className="token-row">
              <span>
                <strong>{t.name}</strong> <code>{t.prefix}…</code>
                <span className="muted">
                  {' '}
                  created {dateTime(t.createdAt)}
                  {t.expiresAt ? `, expires ${dateTime(t.expiresAt)}` : ', never expires'}
                </span>
              </span>
              <button
                type="button"
                className="secondary"
                disabled={revoke.isPending}
                aria-label={`Revoke ${t.name}`}
                onClick={() => revoke.mutate({ id: t.id })}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
