'use client';
import { DAO_WEBHOOK_EVENT_NAMES } from '@plenum/validators';
import { useTranslations } from 'next-intl';
import { WebhooksPanel } from './webhooks-panel';

/** A DAO's Integrations page (docs/webhooks.md, "In the web app"): its webhooks, for the owner and admins. */
export function IntegrationsView({ daoId }: { daoId: string }) {
  const t = useTranslations('webhooks');
  return (
    <div className="grid min-w-0 gap-6">
      <div className="grid gap-1">
        <h1 className="m-0 text-2xl font-semibold">{t('title')}</h1>
        <p className="m-0 text-sm text-muted-foreground">{t('intro')}</p>
      </div>
      <WebhooksPanel
        daoId={daoId}
        events={DAO_WEBHOOK_EVENT_NAMES}
        initialEvents={['proposal_submitted', 'proposal_status_changed']}
        emptyText={t('none')}
      />
    </div>
  );
}
