import { ProposalView } from '../../../components/governance/proposal-view';

export const metadata = { title: 'Proposal · Plenum' };

export default async function ProposalPage({ params }: { params: Promise<{ proposalId: string }> }) {
  const { proposalId } = await params;
  return <ProposalView proposalId={proposalId} />;
}
