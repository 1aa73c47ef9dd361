/** Governance forms validate through the shared helper; these are the number and time inputs' extras. */
export { validate as validateWith } from '../form';

/** '' → undefined (so "required" is reported), else the number the text spells (NaN stays invalid). */
export const numberOrUndefined = (text: string | undefined) =>
  text === undefined || text.trim() === '' ? undefined : Number(text);

/** A datetime-local value (local time, no offset) → ISO-8601 UTC with Z, as the API requires. */
export function localToIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}
