import { getTranslations } from 'next-intl/server';
import { CreateDaoForm } from '../../../components/governance/create-dao-form';

export async function generateMetadata() {
  const t = await getTranslations('governance.meta');
  return { title: t('createDao') };
}

export default async function NewDaoPage() {
  const t = await getTranslations('governance.createDao');
  return (
    <div className="flex flex-col gap-4">
      <h1>{t('title')}</h1>
      <CreateDaoForm />
    </div>
  );
}
