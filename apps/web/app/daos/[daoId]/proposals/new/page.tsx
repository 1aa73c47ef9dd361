import { getTranslations } from 'next-intl/server';
import { NewProposalView } from '../../../../../components/governance/new-proposal-view';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('newProposal') };
}

export default async function NewProposalPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return <NewProposalView daoId={daoId} />;
}
