'use client';
import { Languages } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { toast } from 'sonner';
import { readCookie, writeCookie } from '../../lib/i18n/cookies';
import { LOCALE_COOKIE, LOCALES } from '../../lib/i18n/locale';
import { useMounted } from '../../lib/use-mounted';
import { RadioMenu } from '../ui/radio-menu';
import { useSavePreference } from './use-save-preference';

const SYSTEM = 'system';

/**
 * System (the browser's languages) / English / Deutsch. Signed in, the choice becomes the stored language
 * preference (the account page shows it; "System" hands it back to the browser); signed out, it holds for
 * this browser until the next sign-in.
 */
export function LanguageMenu() {
  const t = useTranslations('shell.language');
  const locale = useLocale();
  const router = useRouter();
  const mounted = useMounted();
  const preference = useSavePreference();
  // System while nothing is chosen: no stored choice (signed in), no cookie (signed out)
  const following = preference.signedIn
    ? preference.stored?.followSystem.language === true
    : mounted && readCookie(LOCALE_COOKIE) === null;
  const current = following ? SYSTEM : locale;

  function choose(next: string) {
    if (next === current) return;
    const show = () => {
      writeCookie(LOCALE_COOKIE, next === SYSTEM ? null : next);
      router.refresh();
    };
    const saving = preference.save(
      next === SYSTEM ? { followSystem: { language: true } } : { language: next },
      {
        onSuccess: show,
        onError: () => toast.error(t('saveFailed')),
      },
    );
    if (!saving) show();
  }

  return (
    <RadioMenu
      icon={<Languages aria-hidden />}
      label={t('switch', { language: t(locale as 'en') })}
      value={current}
      options={[
        { value: SYSTEM, label: t('system') },
        ...LOCALES.map((l) => ({ value: l, label: t(l), lang: l })),
      ]}
      onChange={choose}
    />
  );
}
