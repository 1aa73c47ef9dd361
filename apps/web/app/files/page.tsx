import { getTranslations } from 'next-intl/server';
import { FilesView } from '../../components/files/files-view';

export async function generateMetadata() {
  const t = await getTranslations('files');
  return { title: t('metaTitle') };
}

export default async function FilesPage() {
  const t = await getTranslations('files');
  return (
    <div className="grid min-w-0 gap-6">
      <h1 className="m-0 text-2xl font-semibold">{t('title')}</h1>
      <FilesView />
    </div>
  );
}
