import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { Shell } from '../components/shell';
import { Providers } from './providers';
import './globals.css';

export const dynamic = 'force-dynamic';
export const viewport = { width: 'device-width', initialScale: 1 };

export async function generateMetadata() {
  const t = await getTranslations('common.app');
  return { title: 'Plenum', description: t('description') };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const apiUrl = process.env.API_URL ?? 'http://localhost:4000';
  const locale = await getLocale();
  return (
    // next-themes sets the theme class before React hydrates, hence suppressHydrationWarning here only
    <html lang={locale} suppressHydrationWarning>
      <body>
        {/* messages, locale and time zone come from i18n/request.ts */}
        <NextIntlClientProvider>
          <Providers apiUrl={apiUrl}>
            <Shell>{children}</Shell>
          </Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
