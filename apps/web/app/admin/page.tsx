import { getTranslations } from 'next-intl/server';
import { RegistrationsChart } from '../../components/admin/registrations-chart';
import { StatsCards } from '../../components/admin/stats-cards';

export default async function AdminOverviewPage() {
  const t = await getTranslations('admin.nav');
  return (
    <section aria-labelledby="overview-heading" className="grid min-w-0 gap-4">
      <h2 id="overview-heading" className="m-0 text-xl font-semibold">
        {t('overview')}
      </h2>
      <StatsCards />
      <RegistrationsChart />
    </section>
  );
}
