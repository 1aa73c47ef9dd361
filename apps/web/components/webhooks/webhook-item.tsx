'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../lib/trpc';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../ui/dialog';
import { useActionError } from './use-action-error';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookForm } from './webhook-form';
import { WebhookSecret } from './webhook-secret';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledAt: string | null;
}

/**
 * One webhook: its URL, events and state (with when it was disabled automatically), and what can be done
 * with it: edit, enable or disable, send a test, rotate the secret (asked first; the new one shown once),
 * delete (asked first); under it its latest deliveries (docs/webhooks.md, "In the web app").
 */
export function WebhookItem({ webhook, events }: { webhook: Webhook; events: readonly string[] }) {
  const t = useTranslations('webhooks');
  const tc = useTranslations('common');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const failed = useActionError();
  const [editing, setEditing] = useState(false);
  // what the confirmation asks stays while it closes, so its text does not change as it fades out
  const [asking, setAsking] = useState<'rotate' | 'delete'>('delete');
  const [confirming, setConfirming] = useState(false);
  const ask = (what: 'rotate' | 'delete') => {
    setAsking(what);
    setConfirming(true);
  };
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.pathKey() });
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions());
  const test = useMutation(
    trpc.webhooks.test.mutationOptions({
      onSuccess: () => {
        toast.success(t('testQueued'));
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: failed,
    }),
  );
  const autoDisabled = !webhook.enabled && webhook.disabledAt !== null;

  return (
    <li
      className="grid min-w-0 gap-3 rounded-lg border bg-card p-3"
      data-testid="webhook"
      data-enabled={webhook.enabled}
    >
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <code className="min-w-0 break-all text-sm font-medium">{webhook.url}</code>
          <Badge variant={webhook.enabled ? 'success' : autoDisabled ? 'destructive' : 'secondary'}>
            {webhook.enabled ? t('enabled') : autoDisabled ? t('disabled') : t('off')}
          </Badge>
        </div>
        <ul
          className="m-0 flex list-none flex-wrap gap-1 p-0"
          aria-label={t('events')}
          data-testid="webhook-events"
        >
          {webhook.events.map((e) => (
            <li key={e}>
              <Badge variant="outline" className="font-mono">
                {e}
              </Badge>
            </li>
          ))}
        </ul>
        {autoDisabled && webhook.disabledAt && (
          <p className="m-0 text-sm text-destructive" data-testid="webhook-disabled-at">
            {t.rich('disabledSince', { time: () => <DateTime value={webhook.disabledAt ?? ''} /> })}
          </p>
        )}
      </div>
      <fieldset className="m-0 flex min-w-0 flex-wrap gap-2 border-0 p-0">
        <legend className="sr-only">{t('actionsFor', { url: webhook.url })}</legend>
        <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
          {t('edit')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              { id: webhook.id, enabled: !webhook.enabled },
              {
                onSuccess: (w) => toast.success(w.enabled ? t('enabledToast') : t('disabledToast')),
                onError: failed,
              },
            )
          }
        >
          {webhook.enabled ? t('disable') : t('enable')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={test.isPending}
          onClick={() => test.mutate({ id: webhook.id })}
        >
          {t('test')}
        </Button>
        <Button variant="outline" size="sm" onClick={() => ask('rotate')}>
          {t('rotate')}
        </Button>
        <Button variant="outline" size="sm" onClick={() => ask('delete')}>
          {t('delete')}
        </Button>
      </fieldset>
      {secret && <WebhookSecret secret={secret} rotated />}
      <WebhookDeliveries webhookId={webhook.id} />
      <Dialog open={editing} onOpenChange={setEditing}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('editTitle')}</DialogTitle>
            <DialogDescription>{t('editWhat')}</DialogDescription>
          </DialogHeader>
          <WebhookForm
            label={t('editTitle')}
            events={events}
            initial={{ url: webhook.url, events: webhook.events }}
            submitLabel={t('save')}
            pendingLabel={t('saving')}
            submit={async (values) => {
              await update.mutateAsync({ id: webhook.id, ...values });
              setEditing(false);
              toast.success(t('saved'));
            }}
            footer={
              <Button type="button" variant="outline" onClick={() => setEditing(false)}>
                {tc('cancel')}
              </Button>
            }
          />
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        destructive
        title={asking === 'delete' ? t('deleteTitle') : t('rotateTitle')}
        description={asking === 'delete' ? t('deleteWhat', { url: webhook.url }) : t('rotateWhat')}
        confirmLabel={asking === 'delete' ? t('delete') : t('rotate')}
        onConfirm={async () => {
          if (asking === 'delete') await remove.mutateAsync({ id: webhook.id });
          else setSecret((await rotate.mutateAsync({ id: webhook.id })).secret);
        }}
      />
    </li>
  );
}
