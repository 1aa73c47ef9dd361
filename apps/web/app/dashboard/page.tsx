import { DashboardView } from '../../components/governance/dashboard-view';

export const metadata = { title: 'Dashboard · Plenum' };

export default function DashboardPage() {
  return <DashboardView />;
}
