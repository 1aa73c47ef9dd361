'use client';
import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useTheme } from 'next-themes';
import { toast } from 'sonner';
import { useMounted } from '../../lib/use-mounted';
import { applyTheme, type Theme } from '../account/theme';
import { RadioMenu } from '../ui/radio-menu';
import { useSavePreference } from './use-save-preference';

/**
 * Light / dark / system (the device's setting). Signed in, the choice is the stored preference, saved at
 * once like on the account page ("System" hands it back to the device); if saving fails the previous theme
 * comes back.
 */
export function ThemeMenu() {
  const t = useTranslations('common.theme');
  const ts = useTranslations('shell.theme');
  const mounted = useMounted();
  const { theme = 'system', resolvedTheme } = useTheme();
  const preference = useSavePreference();
  const shown = mounted ? theme : 'system';
  const options = ['light', 'dark', 'system'] as const;

  function choose(next: string) {
    const before = shown;
    if (next === before) return;
    applyTheme(next === 'system' ? null : (next as Theme));
    preference.save(next === 'system' ? { followSystem: { theme: true } } : { theme: next as Theme }, {
      onError: () => {
        applyTheme(before === 'system' ? null : (before as Theme));
        toast.error(ts('saveFailed'));
      },
    });
  }

  const Icon = !mounted ? Monitor : resolvedTheme === 'dark' ? Moon : Sun;
  return (
    <RadioMenu
      icon={<Icon aria-hidden />}
      label={ts('switch', { theme: t(shown as 'light') })}
      value={shown}
      options={options.map((o) => ({ value: o, label: t(o) }))}
      onChange={choose}
    />
  );
}
