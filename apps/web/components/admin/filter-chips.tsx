'use client';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';

/**
 * One-choice filter as a row of toggle buttons ("chips"): pressing the chosen one again clears it. The
 * group is labelled; each chip says whether it is on (aria-pressed).
 */
export function FilterChips<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V | null;
  options: { value: V; label: string }[];
  onChange: (value: V | null) => void;
}) {
  const t = useTranslations('admin.users.filters');
  const chip = (pressed: boolean) =>
    cn(
      'inline-flex h-8 items-center rounded-full border px-3 text-sm whitespace-nowrap outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
      pressed
        ? 'border-primary bg-primary text-primary-foreground'
        : 'border-input bg-background text-foreground hover:bg-accent',
    );
  return (
    <fieldset className="m-0 min-w-0 border-0 p-0">
      <legend className="sr-only">{label}</legend>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <span className="text-sm font-medium text-muted-foreground" aria-hidden>
          {label}:
        </span>
        <button
          type="button"
          className={chip(value === null)}
          aria-pressed={value === null}
          onClick={() => onChange(null)}
        >
          {t('any')}
        </button>
        {options.map((o) => (
          <button
            key={o.value}
            type="button"
            className={chip(value === o.value)}
            aria-pressed={value === o.value}
            onClick={() => onChange(value === o.value ? null : o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
