'use client';
import { STORAGE_WEBHOOK_EVENT_NAMES } from '@plenum/validators';
import { useTranslations } from 'next-intl';
import { WebhooksPanel } from './webhooks-panel';

/** The account's own storage webhooks (pins verified or failed), on the account page's Webhooks tab. */
export function AccountWebhooks() {
  const t = useTranslations('webhooks.account');
  return (
    <section aria-labelledby="account-webhooks-heading" className="grid min-w-0 gap-4">
      <h2 id="account-webhooks-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 text-muted-foreground">{t('intro')}</p>
      <WebhooksPanel
        events={STORAGE_WEBHOOK_EVENT_NAMES}
        initialEvents={[...STORAGE_WEBHOOK_EVENT_NAMES]}
        emptyText={t('none')}
        nested
      />
    </section>
  );
}
