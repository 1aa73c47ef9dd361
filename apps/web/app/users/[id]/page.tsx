import { getTranslations } from 'next-intl/server';
import { PublicProfile } from '../../../components/account/public-profile';

export async function generateMetadata() {
  const t = await getTranslations('account.profilePage');
  return { title: t('metaTitle') };
}

export default async function UserProfilePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <PublicProfile id={id} />;
}
