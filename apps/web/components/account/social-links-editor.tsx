'use client';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Button } from '../ui/button';
import { Field, FieldErrors } from '../ui/field';

export interface LinkRow {
  key: string;
  value: string;
}

const MAX_LINKS = 20;

/** Label → link pairs (e.g. "GitHub" → "https://github.com/ada"), at most 20. */
export function SocialLinksEditor({
  rows,
  onChange,
  errors,
}: {
  rows: LinkRow[];
  onChange: (rows: LinkRow[]) => void;
  errors?: string[] | undefined;
}) {
  const t = useTranslations('account.links');
  const id = useId();
  const set = (i: number, patch: Partial<LinkRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset aria-describedby={errors?.length ? `${id}-errors` : undefined} data-testid="social-links">
      <legend>{t('title')}</legend>
      {rows.length === 0 && <p className="muted">{t('none')}</p>}
      {rows.map((row, i) => (
        // rows have no identity but their position; the inputs are controlled, so that is enough
        <div className="grid items-end gap-2 sm:grid-cols-[minmax(6rem,1fr)_minmax(8rem,2fr)_auto]" key={i}>
          <Field
            label={t('label', { n: i + 1 })}
            name={`links.${i}.key`}
            type="text"
            maxLength={50}
            value={row.key}
            placeholder="GitHub"
            onChange={(e) => set(i, { key: e.target.value })}
          />
          <Field
            label={t('link', { n: i + 1 })}
            name={`links.${i}.value`}
            type="text"
            maxLength={500}
            value={row.value}
            placeholder="https://…"
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <Button
            type="button"
            variant="outline"
            aria-label={t('removeNamed', { n: i + 1 })}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            {t('remove')}
          </Button>
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        className="justify-self-start"
        disabled={rows.length >= MAX_LINKS}
        onClick={() => onChange([...rows, { key: '', value: '' }])}
      >
        {t('add')}
      </Button>
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </fieldset>
  );
}
