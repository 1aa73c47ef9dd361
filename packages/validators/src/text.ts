/**
 * PostgreSQL cannot store the NUL character (U+0000) in text or jsonb, and no field of Plenum has a use
 * for it. Every input is scanned once, before its schema runs, for NUL in any string or object key at
 * any depth; each hit is a field issue (docs/api.md, "Validation").
 */
export interface TextIssue {
  path: string;
  message: string;
  code: 'nul_character';
}

const NUL = '\u0000';
const MAX_DEPTH = 64;

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

export function nulCharacterIssues(value: unknown, maxIssues = 20): TextIssue[] {
  const issues: TextIssue[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, path: string[], depth: number) => {
    if (issues.length >= maxIssues) return;
    if (typeof v === 'string') {
      if (v.includes(NUL)) issues.push({ path: path.join('.'), message: NUL_MESSAGE, code: 'nul_character' });
      return;
    }
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, [...path, String(i)], depth + 1);
      return;
    }
    // plain data only (JSON bodies, query objects, FormData is not scanned: uploads are plain routes)
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return;
    for (const [key, item] of Object.entries(v)) {
      if (key.includes(NUL)) {
        issues.push({ path: [...path, key].join('.'), message: `key ${NUL_MESSAGE}`, code: 'nul_character' });
        continue;
      }
      visit(item, [...path, key], depth + 1);
    }
  };
  visit(value, [], 0);
  return issues;
}
