import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Plenum', description: 'Decisions and files of a community' };

export default function RootLayout({ children }: { children: ReactNode }) {
  const apiUrl = process.env.API_URL ?? 'http://localhost:4000';
  return (
    <html lang="en">
      <body>
        <Providers apiUrl={apiUrl}>{children}</Providers>
      </body>
    </html>
  );
}
