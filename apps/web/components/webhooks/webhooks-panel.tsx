'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Webhook as WebhookIcon } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { EmptyState } from '../ui/empty-state';
import { QueryState } from '../ui/query-state';
import { WebhookForm } from './webhook-form';
import { WebhookItem } from './webhook-item';
import { WebhookSecret } from './webhook-secret';

/**
 * The webhooks of one owner, with the form that adds one (its secret shown once, right after) and each
 * webhook's actions and deliveries. `daoId` names a DAO's webhooks (its Integrations page); without it,
 * the account's own storage webhooks (docs/webhooks.md, "In the web app").
 */
export function WebhooksPanel({
  daoId,
  events,
  initialEvents,
  emptyText,
  nested = false,
}: {
  daoId?: string;
  /** the events this kind of webhook may carry */
  events: readonly string[];
  /** ticked in the form at first */
  initialEvents: string[];
  emptyText: string;
  /** inside a section that has its own h2: the list's heading is an h3 */
  nested?: boolean;
}) {
  const t = useTranslations('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions(daoId ? { daoId } : {}));
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() }),
    }),
  );
  const [secret, setSecret] = useState<string | null>(null);
  const Heading = nested ? 'h3' : 'h2';

  return (
    <div className="grid min-w-0 gap-6">
      <WebhookForm
        label={t('add')}
        events={events}
        initial={{ url: '', events: initialEvents }}
        resetOnSuccess
        submitLabel={t('add')}
        pendingLabel={t('adding')}
        submit={async (values) => {
          setSecret(null);
          setSecret((await create.mutateAsync({ ...values, ...(daoId ? { daoId } : {}) })).secret);
        }}
      />
      {secret && <WebhookSecret secret={secret} />}
      <section aria-labelledby="webhooks-heading" className="grid min-w-0 gap-3">
        <Heading id="webhooks-heading" className="m-0 text-lg font-semibold">
          {t('list')}
        </Heading>
        <QueryState query={list}>
          {(data) => {
            // without daoId the API lists every webhook the account created, its DAOs' too: keep its own
            const items = daoId ? data.items : data.items.filter((w) => w.daoId === null);
            return items.length === 0 ? (
              <EmptyState icon={WebhookIcon} title={emptyText} testId="no-webhooks" />
            ) : (
              <ul className="m-0 grid list-none gap-3 p-0" data-testid="webhooks">
                {items.map((w) => (
                  <WebhookItem key={w.id} webhook={w} events={events} />
                ))}
              </ul>
            );
          }}
        </QueryState>
      </section>
    </div>
  );
}
