import { getTranslations } from 'next-intl/server';
import { IntegrationsView } from '../../../../components/webhooks/integrations-view';

export async function generateMetadata() {
  const t = await getTranslations('webhooks');
  return { title: t('title') };
}

export default async function IntegrationsPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <IntegrationsView daoId={daoId} />;
}
