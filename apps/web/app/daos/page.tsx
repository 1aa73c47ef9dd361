import { getTranslations } from 'next-intl/server';
import { DaoDirectory } from '../../components/governance/dao-directory';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('daos') };
}

export default function DaosPage() {
  return <DaoDirectory />;
}
