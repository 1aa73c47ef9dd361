'use client';
import { useQuery } from '@tanstack/react-query';
import { toDisplayError } from '../lib/errors';
import { pollOrRecover } from '../lib/query-client';
import { useTRPC } from '../lib/trpc';
import { ErrorAlert } from './alert';
import { MailText } from './mail-text';

/** The development outbox: every mail the API would have sent, newest first. */
export function OutboxList() {
  const trpc = useTRPC();
  const outbox = useQuery({ ...trpc.dev.outbox.queryOptions(), refetchInterval: pollOrRecover(5_000) });
  if (outbox.isPending) return <p aria-live="polite">Loading the outbox…</p>;
  if (outbox.isError) return <ErrorAlert error={toDisplayError(outbox.error)} />;
  if (outbox.data.items.length === 0)
    return <p>No mail yet. Register an account and its verification mail appears here.</p>;
  return (
    <ol className="mail-list" data-testid="outbox">
      {outbox.data.items.map((mail) => (
        <li key={mail.id} className="card">
          <article aria-label={mail.subject}>
            <h2 className="mail-subject">{mail.subject}</h2>
            <p className="muted">
              To <strong>{mail.to}</strong> ·{' '}
              <time dateTime={mail.createdAt}>{new Date(mail.createdAt).toLocaleString()}</time>
            </p>
            <MailText text={mail.text} />
          </article>
        </li>
      ))}
    </ol>
  );
}
