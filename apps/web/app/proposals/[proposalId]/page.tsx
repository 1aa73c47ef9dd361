import { getTranslations } from 'next-intl/server';
import { ProposalView } from '../../../components/governance/proposal-view';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('proposal') };
}

export default async function ProposalPage({ params }: { params: Promise<{ proposalId: string }> }) {
  const { proposalId } = await params;
  return <ProposalView proposalId={proposalId} />;
}
