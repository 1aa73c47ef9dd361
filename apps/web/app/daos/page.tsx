import { getTranslations } from 'next-intl/server';
import { DaoDirectory } from '../../components/governance/dao-directory';
import { directoryInput } from '../../lib/governance/page-reads';
import { Prefetch } from '../../lib/prefetch';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('daos') };
}

export default function DaosPage() {
  return (
    <Prefetch
      load={({ trpc, queryClient }) =>
        queryClient.prefetchQuery(trpc.governance.daos.list.queryOptions(directoryInput(1, '')))
      }
      markdown={({ trpc, queryClient }) => ({
        inlines: queryClient
          .getQueryData(trpc.governance.daos.list.queryKey(directoryInput(1, '')))
          ?.items.map((d) => d.description),
      })}
    >
      <DaoDirectory />
    </Prefetch>
  );
}
