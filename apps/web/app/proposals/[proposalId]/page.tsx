import { getTranslations } from 'next-intl/server';
import { ProposalView } from '../../../components/governance/proposal-view';
import { votesInput } from '../../../lib/governance/page-reads';
import { Prefetch, prefetchNames, settled } from '../../../lib/prefetch';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('proposal') };
}

export default async function ProposalPage({
  params,
  searchParams,
}: {
  params: Promise<{ proposalId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ proposalId }, query] = await Promise.all([params, searchParams]);
  // the votes list as it opens without a filter or sort in the address (components/governance/votes-list.tsx)
  const plainVotes = query.choice === undefined && query.sort === undefined;
  return (
    <Prefetch
      load={async (reads) => {
        const { trpc, queryClient } = reads;
        const [proposal, , votes] = await Promise.all([
          settled(queryClient.fetchQuery(trpc.governance.proposals.get.queryOptions({ proposalId }))),
          queryClient.prefetchQuery(trpc.governance.votes.results.queryOptions({ proposalId })),
          plainVotes
            ? settled(
                queryClient.fetchQuery(
                  trpc.governance.votes.byProposal.queryOptions(votesInput(proposalId, 1, 'newest', '')),
                ),
              )
            : undefined,
        ]);
        if (!proposal) return;
        // the DAO's name and rules (the breadcrumb, weights and vote change), the author's and voters' names,
        // and a closed proposal's record (components/governance/proposal-record.tsx)
        await Promise.all([
          queryClient.prefetchQuery(trpc.governance.daos.get.queryOptions({ daoId: proposal.daoId })),
          proposal.recordCid
            ? queryClient.prefetchQuery(trpc.governance.proposals.record.queryOptions({ proposalId }))
            : undefined,
          prefetchNames(reads, [proposal.creatorAddress, ...(votes?.items ?? []).map((v) => v.voterAddress)]),
        ]);
      }}
      markdown={({ trpc, queryClient }) => ({
        blocks: [
          queryClient.getQueryData(trpc.governance.proposals.get.queryKey({ proposalId }))?.description,
        ],
      })}
    >
      <ProposalView proposalId={proposalId} />
    </Prefetch>
  );
}
