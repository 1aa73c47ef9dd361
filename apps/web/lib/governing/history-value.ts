/** A value of a history entry's from/to (docs/governance.md, "History"), as a page shows it. */
export type HistoryValue =
  | { kind: 'none' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'text'; text: string };

const MAX = 160;

export function historyValue(v: unknown): HistoryValue {
  if (v === null || v === undefined || v === '') return { kind: 'none' };
  if (typeof v === 'boolean') return { kind: 'boolean', value: v };
  const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v);
  // a long description stays readable in a list: its start, cut at a character
  return { kind: 'text', text: text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text };
}
