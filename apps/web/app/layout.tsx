import type { ReactNode } from 'react';
import { ThemeSync } from '../components/account/theme';
import { themeBootScript } from '../components/account/theme-boot';
import { Shell } from '../components/shell';
import { Providers } from './providers';
import './globals.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Plenum', description: 'Decisions and files of a community' };
export const viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  const apiUrl = process.env.API_URL ?? 'http://localhost:4000';
  return (
    // the boot script sets data-theme before React hydrates, hence suppressHydrationWarning here only
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeBootScript }} />
      </head>
      <body>
        <Providers apiUrl={apiUrl}>
          <ThemeSync />
          <Shell>{children}</Shell>
        </Providers>
      </body>
    </html>
  );
}
