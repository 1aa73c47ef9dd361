import { getTranslations } from 'next-intl/server';
import { DelegatesView } from '../../../../components/delegation/delegates-view';

export async function generateMetadata() {
  const t = await getTranslations('delegation.meta');
  return { title: t('delegates') };
}

export default async function DelegatesPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <DelegatesView daoId={daoId} />;
}
