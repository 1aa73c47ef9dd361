import { getTranslations } from 'next-intl/server';
import { DaoDirectory } from '../../components/governance/dao-directory';
import { directoryInput } from '../../lib/governance/page-reads';
import { Prefetch } from '../../lib/prefetch';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('daos') };
}

export default async function DaosPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // a search in the address (?q=) is read first, as the directory opens with it
  const { q } = await searchParams;
  const input = directoryInput(1, '', typeof q === 'string' ? q : '');
  return (
    <Prefetch
      load={({ trpc, queryClient }) =>
        queryClient.prefetchQuery(trpc.governance.daos.list.queryOptions(input))
      }
      markdown={({ trpc, queryClient }) => ({
        inlines: queryClient
          .getQueryData(trpc.governance.daos.list.queryKey(input))
          ?.items.map((d) => d.description),
      })}
    >
      <DaoDirectory />
    </Prefetch>
  );
}
