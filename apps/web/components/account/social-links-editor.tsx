'use client';
import { useId } from 'react';

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
  const id = useId();
  const set = (i: number, patch: Partial<LinkRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset aria-describedby={errors?.length ? `${id}-errors` : undefined} data-testid="social-links">
      <legend>Social links</legend>
      {rows.length === 0 && <p className="muted">No links yet.</p>}
      {rows.map((row, i) => (
        // rows have no identity but their position; the inputs are controlled, so that is enough
        <div className="link-row" key={i}>
          <div className="field">
            <label htmlFor={`${id}-k${i}`}>Label {i + 1}</label>
            <input
              id={`${id}-k${i}`}
              type="text"
              maxLength={50}
              value={row.key}
              placeholder="GitHub"
              onChange={(e) => set(i, { key: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-v${i}`}>Link {i + 1}</label>
            <input
              id={`${id}-v${i}`}
              type="text"
              maxLength={500}
              value={row.value}
              placeholder="https://…"
              onChange={(e) => set(i, { value: e.target.value })}
            />
          </div>
          <button
            type="button"
            className="secondary"
            aria-label={`Remove link ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        disabled={rows.length >= MAX_LINKS}
        onClick={() => onChange([...rows, { key: '', value: '' }])}
      >
        Add a link
      </button>
      {errors?.length ? (
        <ul id={`${id}-errors`} className="field-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
