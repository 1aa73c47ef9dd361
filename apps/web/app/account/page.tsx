import { getTranslations } from 'next-intl/server';
import { accountTab } from '../../components/account/account-tab-names';
import { AccountTabs } from '../../components/account/account-tabs';

export async function generateMetadata() {
  const t = await getTranslations('account');
  return { title: t('metaTitle') };
}

export default async function AccountPage({ searchParams }: { searchParams: Promise<{ tab?: string }> }) {
  const t = await getTranslations('account');
  const { tab } = await searchParams;
  return (
    <div className="grid min-w-0 gap-6">
      <h1 className="m-0 text-2xl font-semibold">{t('title')}</h1>
      <AccountTabs initial={accountTab(tab)} />
    </div>
  );
}
