'use client';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Button } from '../ui/button';
import { FieldErrors } from '../ui/field';
import { Input } from '../ui/input';

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 5;

/** 2–5 voting options, each its own labelled input; errors come keyed by index from the schema. */
export function OptionsEditor({
  options,
  onChange,
  errors,
}: {
  options: string[];
  onChange: (options: string[]) => void;
  errors: Record<string, string[]>;
}) {
  const id = useId();
  const t = useTranslations('governance.options');
  const general = errors.votingOptions;
  return (
    <fieldset
      className="flex min-w-0 flex-col gap-3"
      aria-describedby={general?.length ? `${id}-errors` : undefined}
    >
      <legend className="font-semibold">{t('legend')}</legend>
      <p className="text-sm text-muted-foreground">{t('hint')}</p>
      <ol className="m-0 flex list-decimal flex-col gap-2 pl-6">
        {options.map((option, i) => {
          const fieldErrors = errors[`votingOptions.${i}`];
          return (
            <li key={i}>
              <div className="flex flex-wrap items-center gap-2">
                <label htmlFor={`${id}-${i}`} className="sr-only">
                  {t('option', { number: i + 1 })}
                </label>
                <Input
                  id={`${id}-${i}`}
                  type="text"
                  className="flex-[1_1_10rem]"
                  value={option}
                  maxLength={100}
                  aria-invalid={fieldErrors?.length ? true : undefined}
                  aria-describedby={fieldErrors?.length ? `${id}-${i}-errors` : undefined}
                  onChange={(e) => onChange(options.map((o, j) => (j === i ? e.target.value : o)))}
                />
                <Button
                  variant="outline"
                  aria-label={t('removeOption', { number: i + 1 })}
                  disabled={options.length <= MIN_OPTIONS}
                  onClick={() => onChange(options.filter((_, j) => j !== i))}
                >
                  {t('remove')}
                </Button>
              </div>
              <FieldErrors id={`${id}-${i}-errors`} errors={fieldErrors} />
            </li>
          );
        })}
      </ol>
      <FieldErrors id={`${id}-errors`} name="votingOptions" errors={general} />
      <Button
        variant="outline"
        className="self-start"
        disabled={options.length >= MAX_OPTIONS}
        onClick={() => onChange([...options, ''])}
      >
        {t('add')}
      </Button>
    </fieldset>
  );
}
