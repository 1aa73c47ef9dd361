import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AdminGate } from '../../components/admin/admin-gate';
import { AdminNav } from '../../components/admin/admin-nav';

export async function generateMetadata() {
  const t = await getTranslations('admin');
  return { title: t('metaTitle') };
}

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations('admin');
  return (
    <div className="grid min-w-0 gap-4">
      <h1 className="m-0 text-2xl font-semibold">{t('title')}</h1>
      <AdminGate>
        <AdminNav />
        {children}
      </AdminGate>
    </div>
  );
}
