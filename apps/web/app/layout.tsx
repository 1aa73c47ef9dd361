import type { ReactNode } from 'react';
import { Shell } from '../components/shell';
import { Providers } from './providers';
import './globals.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Plenum', description: 'Decisions and files of a community' };
export const viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  const apiUrl = process.env.API_URL ?? 'http://localhost:4000';
  return (
    <html lang="en">
      <body>
        <Providers apiUrl={apiUrl}>
          <Shell>{children}</Shell>
        </Providers>
      </body>
    </html>
  );
}
