import { getTranslations } from 'next-intl/server';
import { DaoView } from '../../../components/governance/dao-view';
import { FIRST_TAB_STATUS, membersInput, proposalTabInput } from '../../../lib/governance/page-reads';
import { Prefetch, prefetchNames, settled } from '../../../lib/prefetch';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('dao') };
}

export default async function DaoPage({ params }: { params: Promise<{ daoId: string }> }) {
  const { daoId } = await params;
  return (
    <Prefetch
      load={async (reads) => {
        const { trpc, queryClient } = reads;
        // one batched request: the DAO, its first proposal tab and its first page of members
        const [, proposals, members] = await Promise.all([
          queryClient.prefetchQuery(trpc.governance.daos.get.queryOptions({ daoId })),
          settled(
            queryClient.fetchQuery(
              trpc.governance.proposals.byDao.queryOptions(proposalTabInput(daoId, 1, FIRST_TAB_STATUS)),
            ),
          ),
          settled(queryClient.fetchQuery(trpc.governance.members.list.queryOptions(membersInput(daoId, 1)))),
        ]);
        // then each listed proposal's tally (its row's bar) and the members' names
        await Promise.all([
          ...(proposals?.items ?? []).map((p) =>
            queryClient.prefetchQuery(
              trpc.governance.votes.results.queryOptions({ proposalId: p.proposalId }),
            ),
          ),
          prefetchNames(
            reads,
            (members?.items ?? []).map((m) => m.memberAddress),
          ),
        ]);
      }}
      markdown={({ trpc, queryClient }) => ({
        blocks: [queryClient.getQueryData(trpc.governance.daos.get.queryKey({ daoId }))?.description],
      })}
    >
      <DaoView daoId={daoId} />
    </Prefetch>
  );
}
