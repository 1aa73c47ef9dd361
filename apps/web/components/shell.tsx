'use client';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { AccountMenu } from './shell/account-menu';
import { LanguageMenu } from './shell/language-menu';
import { MobileNav } from './shell/mobile-nav';
import { NavLinks } from './shell/nav-links';
import { ThemeMenu } from './shell/theme-menu';
import { useNavLinks } from './shell/use-nav';

/** Header (sections, language, theme, account) around every page. */
export function Shell({ children }: { children: ReactNode }) {
  const t = useTranslations('shell');
  const links = useNavLinks();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('skip')}
      </a>
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:px-4">
          <Link
            href="/"
            className="mr-2 flex shrink-0 items-center gap-2 font-bold text-foreground no-underline"
            aria-label={t('home')}
          >
            <svg viewBox="0 0 32 32" className="size-7" aria-hidden>
              <rect width="32" height="32" rx="8" className="fill-primary" />
              <path
                d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13"
                className="fill-none stroke-primary-foreground"
                strokeWidth="3"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <span className="text-lg">Plenum</span>
          </Link>
          <nav aria-label={t('mainNav')} className="min-w-0 max-md:hidden">
            <NavLinks links={links} />
          </nav>
          <div className="ml-auto flex shrink-0 items-center gap-0.5">
            <LanguageMenu />
            <ThemeMenu />
            <AccountMenu />
            <MobileNav links={links} />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl min-w-0 flex-1 px-3 py-6 sm:px-4">
        {children}
      </main>
    </div>
  );
}
