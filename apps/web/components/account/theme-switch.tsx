'use client';
import type { Theme } from './theme';

/** Two radio buttons (arrow keys move between them); the choice applies to the whole app at once. */
export function ThemeSwitch({ value, onChange }: { value: Theme; onChange: (t: Theme) => void }) {
  return (
    <fieldset className="theme-switch" data-testid="theme-switch">
      <legend>Theme</legend>
      {(['light', 'dark'] as const).map((t) => (
        <label key={t} className="checkbox">
          <input type="radio" name="theme" value={t} checked={value === t} onChange={() => onChange(t)} />
          {t === 'light' ? 'Light' : 'Dark'}
        </label>
      ))}
    </fieldset>
  );
}
