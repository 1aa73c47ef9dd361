'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { toast } from 'sonner';
import { useTRPC } from '../../lib/trpc';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { type Column, DataTable } from '../ui/data-table';
import { DateTime } from '../ui/date-time';
import { useActionError } from './use-action-error';

interface Delivery {
  id: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt: number;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
}

const STATUS_BADGE = { pending: 'secondary', succeeded: 'success', failed: 'destructive' } as const;

/**
 * A webhook's ten latest deliveries, refreshed every two seconds: event, status, response code (or the
 * error), duration, attempts, time, and a button that sends the delivery's event again (docs/webhooks.md).
 */
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const t = useTranslations('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const failed = useActionError();
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ id: webhookId, page: 1, limit: 10 }),
    refetchInterval: 2000,
  });
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: () => {
        toast.success(t('redelivered'));
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: failed,
    }),
  );

  const columns: Column<Delivery>[] = [
    { id: 'event', header: t('event'), cell: (d) => <code className="break-all">{d.eventType}</code> },
    {
      id: 'status',
      header: t('status'),
      cell: (d) => <Badge variant={STATUS_BADGE[d.status]}>{t(`statuses.${d.status}`)}</Badge>,
    },
    {
      id: 'response',
      header: t('response'),
      cell: (d) => <span className="break-words">{d.responseStatus ?? d.error ?? '—'}</span>,
    },
    {
      id: 'duration',
      header: t('duration'),
      cell: (d) => (d.durationMs === null ? '—' : t('durationMs', { ms: d.durationMs })),
    },
    { id: 'attempt', header: t('attempt'), cell: (d) => d.attempt },
    { id: 'time', header: t('time'), cell: (d) => <DateTime value={d.lastAttemptAt ?? d.createdAt} /> },
    {
      id: 'actions',
      header: <span className="sr-only">{t('actions')}</span>,
      label: '',
      cell: (d) => (
        <Button
          variant="outline"
          size="sm"
          disabled={redeliver.isPending}
          onClick={() => redeliver.mutate({ id: webhookId, deliveryId: d.id })}
        >
          {t('redeliver')}
        </Button>
      ),
    },
  ];

  // the table's own caption only for screen readers: stacked as cards (below 768 px) a caption wraps
  // one letter a line
  return (
    <div className="grid min-w-0 gap-2">
      <p className="m-0 text-sm font-medium" aria-hidden>
        {t('deliveries')}
      </p>
      <DataTable
        columns={columns}
        rows={deliveries.data?.items ?? []}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-testid': 'delivery', 'data-status': d.status })}
        caption={t('deliveries')}
        captionHidden
        empty={<p className="m-0 text-sm text-muted-foreground">{t('noDeliveries')}</p>}
      />
    </div>
  );
}
