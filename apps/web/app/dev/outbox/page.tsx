'use client';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { OutboxList } from '../../../components/outbox-list';
import { Loading } from '../../../components/ui/query-state';
import { useTRPC } from '../../../lib/trpc';

export default function OutboxPage() {
  const t = useTranslations('admin.outbox');
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  return (
    <div className="grid min-w-0 gap-4">
      <h1 className="m-0 text-2xl font-semibold">{t('title')}</h1>
      {info.data?.emailProviderConfigured ? (
        <p className="m-0">{t('provider')}</p>
      ) : info.data && !info.data.outboxAvailable ? (
        <p className="m-0">{t('unavailable')}</p>
      ) : info.data ? (
        <>
          <p className="m-0 text-muted-foreground">{t('intro')}</p>
          <OutboxList />
        </>
      ) : (
        <Loading />
      )}
    </div>
  );
}
