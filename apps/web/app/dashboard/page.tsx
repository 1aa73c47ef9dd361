import { getTranslations } from 'next-intl/server';
import { DashboardView } from '../../components/governance/dashboard-view';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('dashboard') };
}

export default function DashboardPage() {
  return <DashboardView />;
}
