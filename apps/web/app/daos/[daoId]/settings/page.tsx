import { getTranslations } from 'next-intl/server';
import { SettingsView } from '../../../../components/governing/settings-view';

export async function generateMetadata() {
  const t = await getTranslations('governing.meta');
  return { title: t('settings') };
}

export default async function DaoSettingsPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <SettingsView daoId={daoId} />;
}
