import { NewProposalView } from '../../../../../components/governance/new-proposal-view';

export const metadata = { title: 'New proposal · Plenum' };

export default async function NewProposalPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <NewProposalView daoId={daoId} />;
}
