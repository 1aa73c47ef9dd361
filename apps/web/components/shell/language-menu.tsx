'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Languages } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { toast } from 'sonner';
import { writeCookie } from '../../lib/i18n/cookies';
import { LOCALE_COOKIE, LOCALES } from '../../lib/i18n/locale';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { Button } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';

/**
 * English / Deutsch. Signed in, the choice becomes the stored language preference (the account page shows
 * it); signed out, it holds for this browser until the next sign-in.
 */
export function LanguageMenu() {
  const t = useTranslations('shell.language');
  const locale = useLocale();
  const router = useRouter();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const save = useMutation(trpc.users.updatePreferences.mutationOptions());

  function choose(next: string) {
    if (next === locale) return;
    const show = () => {
      writeCookie(LOCALE_COOKIE, next);
      router.refresh();
    };
    if (!signedIn || !id) return show();
    save.mutate(
      { id, language: next },
      {
        onSuccess: (saved) => {
          queryClient.setQueryData(trpc.users.preferences.queryKey({ id }), saved);
          show();
        },
        onError: () => toast.error(t('saveFailed')),
      },
    );
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t('switch', { language: t(locale as 'en') })}>
          <Languages aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-36">
        <DropdownMenuRadioGroup value={locale} onValueChange={choose}>
          {LOCALES.map((l) => (
            <DropdownMenuRadioItem key={l} value={l} lang={l}>
              {t(l)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
