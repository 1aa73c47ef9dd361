import { DaoView } from '../../../components/governance/dao-view';

export const metadata = { title: 'DAO · Plenum' };

export default async function DaoPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <DaoView daoId={daoId} />;
}
