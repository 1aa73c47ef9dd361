'use client';
import { Menu } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useMe } from '../../lib/use-auth';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../ui/dialog';
import { NavLinks } from './nav-links';
import type { NavLink } from './use-nav';

/** Below 768 px the sections move into a menu that opens from the header (a Radix dialog: focus trapped, Esc closes). */
export function MobileNav({ links }: { links: NavLink[] }) {
  const t = useTranslations('shell');
  const [open, setOpen] = useState(false);
  const { signedIn } = useMe();
  const close = () => setOpen(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('menu.open')}>
          <Menu aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent className="top-0 left-auto right-0 h-dvh max-h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 content-start rounded-none border-y-0 border-r-0">
        <DialogTitle>{t('menu.title')}</DialogTitle>
        <DialogDescription className="sr-only">{t('mainNav')}</DialogDescription>
        <nav aria-label={t('mainNav')}>
          <NavLinks links={links} vertical onNavigate={close} />
        </nav>
        {!signedIn && (
          <div className="grid gap-2 border-t pt-4">
            <Button asChild variant="outline">
              <Link href="/sign-in" onClick={close}>
                {t('account.signIn')}
              </Link>
            </Button>
            <Button asChild>
              <Link href="/register" onClick={close}>
                {t('account.register')}
              </Link>
            </Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
