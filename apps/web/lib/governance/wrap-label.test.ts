import { describe, expect, it } from 'vitest';
import { wrapLabel } from './wrap-label';

// every character 7 px wide
const measure = (s: string) => s.length * 7;

describe('wrapLabel', () => {
  it('keeps a short label on one line', () => {
    expect(wrapLabel('Oak', 70, measure)).toEqual(['Oak']);
  });

  it('breaks at spaces, no line wider than the width, no word lost', () => {
    const lines = wrapLabel('Wednesday evening at the library', 70, measure);
    expect(lines).toEqual(['Wednesday', 'evening at', 'the', 'library']);
    expect(lines.every((l) => measure(l) <= 70)).toBe(true);
    expect(lines.join(' ')).toBe('Wednesday evening at the library');
  });

  it('breaks a word wider than a line between characters', () => {
    const lines = wrapLabel('Donaudampfschifffahrt now', 70, measure);
    expect(lines).toEqual(['Donaudampf', 'schifffahr', 't now']);
    expect(lines.every((l) => measure(l) <= 70)).toBe(true);
  });

  it('collapses runs of spaces', () => {
    expect(wrapLabel('  A   B ', 70, measure)).toEqual(['A B']);
  });
});
