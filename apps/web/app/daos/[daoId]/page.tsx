import { getTranslations } from 'next-intl/server';
import { DaoView } from '../../../components/governance/dao-view';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('dao') };
}

export default async function DaoPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <DaoView daoId={daoId} />;
}
