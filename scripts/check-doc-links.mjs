#!/usr/bin/env node
// Every reference to a document's heading points to a file and a heading that exist: `docs/<file>.md#anchor`
// and `[text](<file>.md#anchor)` links (GitHub's anchors), and the comment form `docs/<file>.md, "Heading"`
// (also `docs/<file>.md: "A", "B"`, `docs/<file>.md ("Heading")`, across a comment's line break, and in
// markdown `[text](<file>.md), "Heading"`), whose quoted text is a heading's, matched case-insensitively. Reads the tracked files of apps/, packages/,
// scripts/, docs/ and README.md; prints each broken reference as file:line and exits 1.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|sh|css|sql|ya?ml)$/;
const files = execFileSync(
  'git',
  ['ls-files', '-z', '--', 'apps', 'packages', 'scripts', 'docs', 'README.md'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\0')
  .filter((f) => f && (f.endsWith('.md') || CODE.test(f)) && existsSync(join(root, f)));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered */
const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
/** a heading as it reads: inline code, emphasis and links reduced to their text */
const plain = (text) =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();

const headingsOf = new Map();
/** a markdown file's headings, outside fenced code: their plain text and their anchors */
function headings(file) {
  if (headingsOf.has(file)) return headingsOf.get(file);
  let found = null;
  if (existsSync(join(root, file))) {
    found = { texts: new Set(), anchors: new Set() };
    const seen = new Map();
    let fence = null;
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      const f = /^\s*(```|~~~)/.exec(line);
      if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
      if (fence !== null || f) continue;
      for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.anchors.add(a[1]);
      const h = /^#{1,6}\s+(.+)$/.exec(line);
      if (!h) continue;
      const text = plain(h[1]);
      // "Signed votes" names "Signed votes (EIP-712)": a trailing parenthesis only qualifies a heading
      found.texts.add(text.toLowerCase());
      found.texts.add(text.replace(/\s+\([^()]*\)$/, '').toLowerCase());
      const base = slug(text);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  headingsOf.set(file, found);
  return found;
}

const problems = new Set();
function check(from, line, target, anchor, quoted) {
  const h = headings(target);
  const where = `${from}:${line}`;
  if (!h) return problems.add(`${where}: ${target} does not exist`);
  if (anchor !== undefined && !h.anchors.has(decodeURIComponent(anchor)))
    problems.add(`${where}: ${target} has no heading with the anchor #${anchor}`);
  for (const q of quoted) {
    if (!h.texts.has(q.replace(/\s+/g, ' ').toLowerCase()))
      problems.add(`${where}: ${target} has no heading "${q}"`);
  }
}

const QUOTED = '"[^"\\n]+"';
// docs/<file>.md, optionally #anchor or a markdown link's (…) after it, then optionally quoted headings
const HEADINGS = `(?:(?:,|:)?\\s*\\(?\\s*(${QUOTED}(?:\\s*(?:,|and|or)\\s*${QUOTED})*))?`;
const REFERENCE = new RegExp(
  `(?<![\\w./-])docs/([\\w./-]+?\\.md)(?:#([\\w%-]+))?(?:\\]\\([^)\\s]*\\))?${HEADINGS}`,
  'g',
);
// in markdown, a link to a document or a heading, [text](<file>.md#anchor) or (#anchor), then quoted headings
const LINK = new RegExp(`\\]\\((?![a-z]+:)([^)\\s#]*\\.md)?(?:#([^)\\s]+))?\\)${HEADINGS}`, 'g');
const quotedIn = (list) => (list ? [...list.matchAll(/"([^"]+)"/g)].map((q) => q[1]) : []);

for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  // a line break inside a comment or a paragraph reads as a space; offsets map back to line numbers
  const joined = text.replace(/\n[ \t]*(?:\*(?!\/)|\/\/|#(?!#))?[ \t]*/g, (m) => ' '.padEnd(m.length, ' '));
  const lineAt = (index) => text.slice(0, index).split('\n').length;
  for (const m of joined.matchAll(REFERENCE))
    check(file, lineAt(m.index), `docs/${m[1]}`, m[2], quotedIn(m[3]));
  if (!file.endsWith('.md')) continue;
  for (const m of joined.matchAll(LINK)) {
    if (m[1] === undefined && m[2] === undefined) continue;
    const target = m[1] === undefined ? file : normalize(join(dirname(file), m[1]));
    check(file, lineAt(m.index), target, m[2], quotedIn(m[3]));
  }
}

if (problems.size) {
  console.error(`${problems.size} broken reference(s) to the docs:\n${[...problems].join('\n')}`);
  process.exit(1);
}
console.log(`doc links: ${files.length} files, every reference to a heading exists`);
