'use client';
import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslations } from 'next-intl';
import type { ThemeChoice } from './theme';

const ICONS = { light: Sun, dark: Moon, system: Monitor } as const;

/**
 * Three radio buttons (arrow keys move between them): light, dark, or the device's setting ("System",
 * until the person chooses); the choice applies to the whole app at once.
 */
export function ThemeSwitch({ value, onChange }: { value: ThemeChoice; onChange: (t: ThemeChoice) => void }) {
  const t = useTranslations('common.theme');
  return (
    <fieldset className="m-0 grid gap-2 border-0 p-0" data-testid="theme-switch">
      <legend className="mb-2 p-0 text-sm font-medium">{t('label')}</legend>
      <div className="inline-flex w-fit flex-wrap gap-1 rounded-lg border bg-muted p-1">
        {(['light', 'dark', 'system'] as const).map((theme) => {
          const Icon = ICONS[theme];
          return (
            <label
              key={theme}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground has-checked:bg-background has-checked:text-foreground has-checked:shadow-sm"
            >
              <input
                type="radio"
                name="theme"
                value={theme}
                checked={value === theme}
                onChange={() => onChange(theme)}
                className="size-4 accent-primary"
              />
              <Icon className="size-4" aria-hidden />
              {t(theme)}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
