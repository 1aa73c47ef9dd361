'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
}

/** One webhook: its URL and events, a test button, and its latest deliveries (refreshed every 2 s). */
export function WebhookItem({ webhook }: { webhook: Webhook }) {
  const t = useTranslations('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ id: webhook.id, page: 1, limit: 10 }),
    refetchInterval: 2000,
  });
  const test = useMutation(trpc.webhooks.test.mutationOptions());
  return (
    <li className="flex flex-col gap-2 rounded-md border p-3" data-testid="webhook">
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all text-sm">{webhook.url}</code>
        {!webhook.enabled && <span className="text-sm text-destructive">{t('disabled')}</span>}
      </div>
      <p className="text-xs text-muted-foreground">{webhook.events.join(', ')}</p>
      <Button
        variant="outline"
        className="self-start"
        disabled={test.isPending}
        onClick={() =>
          test.mutate(
            { id: webhook.id },
            {
              onSuccess: () =>
                void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() }),
            },
          )
        }
      >
        {t('test')}
      </Button>
      <table className="text-sm" aria-label={t('deliveries')}>
        <thead>
          <tr className="text-left">
            <th>{t('event')}</th>
            <th>{t('status')}</th>
            <th>{t('response')}</th>
            <th>{t('attempt')}</th>
          </tr>
        </thead>
        <tbody>
          {(deliveries.data?.items ?? []).map((d) => (
            <tr key={d.id} data-testid="delivery">
              <td>
                <code>{d.eventType}</code>
              </td>
              <td>{t(`statuses.${d.status}`)}</td>
              <td>{d.responseStatus ?? d.error ?? '—'}</td>
              <td>{d.attempt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </li>
  );
}
