'use client';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { toDisplayError } from '../lib/errors';
import { pollOrRecover } from '../lib/query-client';
import { useTRPC } from '../lib/trpc';
import { MailText } from './mail-text';
import { DateTime } from './ui/date-time';
import { FormError } from './ui/form';

/** The development outbox: every mail the API would have sent, newest first. */
export function OutboxList() {
  const t = useTranslations('admin.outbox');
  const trpc = useTRPC();
  const outbox = useQuery({ ...trpc.dev.outbox.queryOptions(), refetchInterval: pollOrRecover(5_000) });
  if (outbox.isPending) return <p aria-live="polite">{t('loading')}</p>;
  if (outbox.isError) return <FormError error={toDisplayError(outbox.error)} />;
  if (outbox.data.items.length === 0) return <p>{t('empty')}</p>;
  return (
    <ol className="mail-list" data-testid="outbox">
      {outbox.data.items.map((mail) => (
        <li key={mail.id} className="card">
          <article aria-label={mail.subject}>
            <h2 className="mail-subject">{mail.subject}</h2>
            <p className="muted">
              {t.rich('to', { to: mail.to, strong: (text) => <strong>{text}</strong> })} ·{' '}
              <DateTime value={mail.createdAt} />
            </p>
            <MailText text={mail.text} />
          </article>
        </li>
      ))}
    </ol>
  );
}
