'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { useGovernanceError } from '../governance/use-governance-error';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';
import { QueryState } from '../ui/query-state';
import { WebhookItem } from './webhook-item';

/** the DAO events a webhook may carry (docs/webhooks.md, "Subscribing") */
const DAO_EVENTS = [
  'dao_updated',
  'proposal_submitted',
  'proposal_updated',
  'proposal_status_changed',
  'vote_cast',
  'delegation_changed',
] as const;

/**
 * A DAO's Integrations page (docs/webhooks.md): its webhooks for the owner and admins, a form to add one
 * (the secret shown once), and per webhook its deliveries and a test button.
 */
export function IntegrationsView({ daoId }: { daoId: string }) {
  const t = useTranslations('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const governanceError = useGovernanceError();
  const list = useQuery(trpc.webhooks.list.queryOptions({ daoId }));
  const create = useMutation(trpc.webhooks.create.mutationOptions());
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['proposal_submitted', 'proposal_status_changed']);
  const [error, setError] = useState<DisplayError | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    create.mutate(
      { url, events, daoId },
      {
        onSuccess: (created) => {
          setSecret(created.secret);
          setUrl('');
          void queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() });
        },
        onError: (err) => setError(governanceError(err)),
      },
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="text-sm text-muted-foreground">{t('intro')}</p>
      </div>
      <form onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-3" aria-label={t('add')}>
        <FormError error={error} />
        <Field
          label={t('url')}
          name="url"
          type="url"
          value={url}
          placeholder="https://example.org/plenum"
          onChange={(e) => setUrl(e.target.value)}
          errors={error?.fields.url}
        />
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium">{t('events')}</legend>
          {DAO_EVENTS.map((name) => (
            <label key={name} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="events"
                value={name}
                checked={events.includes(name)}
                onChange={(e) =>
                  setEvents((xs) => (e.target.checked ? [...xs, name] : xs.filter((x) => x !== name)))
                }
              />
              <code>{name}</code>
            </label>
          ))}
        </fieldset>
        <Button type="submit" className="self-start" disabled={create.isPending}>
          {create.isPending ? t('adding') : t('add')}
        </Button>
      </form>
      {secret && (
        <div
          role="status"
          className="flex max-w-2xl flex-col gap-1 rounded-md border p-3"
          data-testid="webhook-secret"
        >
          <p className="text-sm font-medium">{t('secretOnce')}</p>
          <code className="break-all text-sm">{secret}</code>
        </div>
      )}
      <section aria-labelledby="webhooks-heading" className="flex flex-col gap-3">
        <h2 id="webhooks-heading" className="text-lg font-semibold">
          {t('list')}
        </h2>
        <QueryState query={list}>
          {(data) =>
            data.items.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('none')}</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {data.items.map((w) => (
                  <WebhookItem key={w.id} webhook={w} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
    </div>
  );
}
