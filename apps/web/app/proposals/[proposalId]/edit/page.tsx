import { getTranslations } from 'next-intl/server';
import { EditProposalView } from '../../../../components/governing/edit-proposal-view';

export async function generateMetadata() {
  const t = await getTranslations('governing.meta');
  return { title: t('editProposal') };
}

export default async function EditProposalPage({ params }: { params: Promise<{ proposalId: string }> }) {
  const { proposalId } = await params;
  return <EditProposalView proposalId={proposalId} />;
}
