import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locale';

/**
 * Every English text has a German one (messages/README.md): a missing German key would fall back to
 * English in the middle of a German page without anyone noticing.
 */
const DIR = path.join(import.meta.dirname, '../../messages');

type Tree = { [key: string]: string | Tree };
const read = (locale: string, file: string): Tree =>
  JSON.parse(readFileSync(path.join(DIR, locale, file), 'utf8')) as Tree;

/** "a.b.c" → its text, for every leaf */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of leaves(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** the {placeholders} of an ICU message, without plural or select branches' words */
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{\s*([A-Za-z0-9_]+)\s*[,}]/g)].map((m) => m[1]))].sort();

const files = readdirSync(path.join(DIR, 'en')).filter((f) => f.endsWith('.json'));

describe('translations', () => {
  it('has the same namespace files in every language', () => {
    for (const locale of LOCALES)
      expect(
        readdirSync(path.join(DIR, locale))
          .filter((f) => f.endsWith('.json'))
          .sort(),
      ).toEqual([...files].sort());
  });

  for (const file of files) {
    it(`every key of messages/en/${file} has a German text with the same placeholders`, () => {
      const en = leaves(read('en', file));
      const de = leaves(read('de', file));
      const missing = [...en.keys()].filter((k) => !de.has(k));
      expect(missing, `missing in messages/de/${file}`).toEqual([]);
      const extra = [...de.keys()].filter((k) => !en.has(k));
      expect(extra, `only in messages/de/${file}`).toEqual([]);
      const empty = [...de].filter(([, v]) => v.trim() === '').map(([k]) => k);
      expect(empty, `empty in messages/de/${file}`).toEqual([]);
      const mismatched = [...en]
        .filter(([k, v]) => JSON.stringify(placeholders(v)) !== JSON.stringify(placeholders(de.get(k) ?? '')))
        .map(([k]) => k);
      expect(mismatched, `placeholders differ in messages/de/${file}`).toEqual([]);
    });
  }
});
