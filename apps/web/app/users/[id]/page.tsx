import { getTranslations } from 'next-intl/server';
import { PublicProfile } from '../../../components/account/public-profile';
import { Prefetch } from '../../../lib/prefetch';

export async function generateMetadata() {
  const t = await getTranslations('account.profilePage');
  return { title: t('metaTitle') };
}

export default async function UserProfilePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Prefetch
      load={({ trpc, queryClient }) => queryClient.prefetchQuery(trpc.users.profile.queryOptions({ id }))}
    >
      <PublicProfile id={id} />
    </Prefetch>
  );
}
