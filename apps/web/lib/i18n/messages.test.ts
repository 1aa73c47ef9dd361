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

/**
 * The {placeholders} of an ICU message: arguments at any depth, never the words of a plural or select
 * branch (`{when, select, end {had} other {has}}` names `when` only).
 */
function placeholders(text: string): string[] {
  const found = new Set<string>();
  let i = 0;
  const skipSpace = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const word = () => {
    skipSpace();
    const start = i;
    while (i < text.length && /[^\s{},]/.test(text[i] as string)) i++;
    return text.slice(start, i);
  };
  // a message up to the `}` that closes it (or the end)
  const message = () => {
    while (i < text.length && text[i] !== '}') {
      if (text[i] === '{') {
        i++;
        argument();
      } else i++;
    }
  };
  // after `{`: `name}` or `name, type}` or `name, plural|select…, key {message} …}`
  const argument = () => {
    found.add(word());
    skipSpace();
    if (text[i] === ',') {
      i++;
      const type = word();
      skipSpace();
      if (text[i] === ',') i++;
      if (type === 'plural' || type === 'select' || type === 'selectordinal') {
        for (;;) {
          skipSpace();
          if (i >= text.length || text[i] === '}') break;
          word(); // a branch key, or offset:1
          skipSpace();
          if (text[i] === '{') {
            i++;
            message();
            i++;
          }
        }
      } else while (i < text.length && text[i] !== '}') i++;
    }
    i++; // the closing `}`
  };
  message();
  return [...found].sort();
}

const files = readdirSync(path.join(DIR, 'en')).filter((f) => f.endsWith('.json'));

describe('translations', () => {
  it('reads the arguments of a message, not the words of its branches', () => {
    expect(
      placeholders('{when, select, end {had {n}} other {has}} “{for}” {c, plural, =0 {none} other {# x}}'),
    ).toEqual(['c', 'for', 'n', 'when']);
    expect(placeholders('{p, number} of {q}')).toEqual(['p', 'q']);
  });

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
