'use client';
import { Languages } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { toast } from 'sonner';
import { writeCookie } from '../../lib/i18n/cookies';
import { LOCALE_COOKIE, LOCALES } from '../../lib/i18n/locale';
import { RadioMenu } from '../ui/radio-menu';
import { useSavePreference } from './use-save-preference';

/**
 * English / Deutsch. Signed in, the choice becomes the stored language preference (the account page shows
 * it); signed out, it holds for this browser until the next sign-in.
 */
export function LanguageMenu() {
  const t = useTranslations('shell.language');
  const locale = useLocale();
  const router = useRouter();
  const preference = useSavePreference();

  function choose(next: string) {
    if (next === locale) return;
    const show = () => {
      writeCookie(LOCALE_COOKIE, next);
      router.refresh();
    };
    const saving = preference.save(
      { language: next },
      { onSuccess: show, onError: () => toast.error(t('saveFailed')) },
    );
    if (!saving) show();
  }

  return (
    <RadioMenu
      icon={<Languages aria-hidden />}
      label={t('switch', { language: t(locale as 'en') })}
      value={locale}
      options={LOCALES.map((l) => ({ value: l, label: t(l), lang: l }))}
      onChange={choose}
    />
  );
}
