import { describe, expect, it } from 'vitest';
import { nulCharacterIssues } from './text';

describe('nulCharacterIssues', () => {
  it('finds NUL in strings and keys at any depth, with their paths', () => {
    const input = {
      name: 'ok',
      description: 'a\u0000b',
      votingRules: { options: ['fine', '\u0000'] },
      socialLinks: { 'x\u0000': 'https://example.org' },
    };
    expect(nulCharacterIssues(input).map((i) => i.path)).toEqual([
      'description',
      'votingRules.options.1',
      'socialLinks.x\u0000',
    ]);
  });

  it('passes clean input, top-level strings and non-plain objects', () => {
    expect(nulCharacterIssues({ a: 'x', b: [1, null, { c: 'y' }] })).toEqual([]);
    expect(nulCharacterIssues('\u0000')).toEqual([
      { path: '', message: 'must not contain the NUL character (U+0000)', code: 'nul_character' },
    ]);
    expect(nulCharacterIssues(new Date())).toEqual([]);
    expect(nulCharacterIssues(undefined)).toEqual([]);
  });

  it('stops at a bounded number of issues and survives cycles', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, '\u0000']));
    expect(nulCharacterIssues(many)).toHaveLength(20);
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    expect(nulCharacterIssues(cyclic)).toEqual([]);
  });
});
