import { RegistrationsChart } from '../../components/admin/registrations-chart';
import { StatsCards } from '../../components/admin/stats-cards';

export default function AdminOverviewPage() {
  return (
    <section aria-labelledby="overview-heading" className="stack">
      <h2 id="overview-heading">Overview</h2>
      <StatsCards />
      <RegistrationsChart />
    </section>
  );
}
