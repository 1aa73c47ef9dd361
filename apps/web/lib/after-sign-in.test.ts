import { describe, expect, it } from 'vitest';
import { afterSignIn } from './after-sign-in';

describe('afterSignIn', () => {
  it('goes to the dashboard, or to a path on this site named by ?next=', () => {
    expect(afterSignIn('')).toBe('/dashboard');
    expect(afterSignIn('?next=%2Ffiles%3Fx%3D1')).toBe('/files?x=1');
    expect(afterSignIn('?next=/proposals/abc')).toBe('/proposals/abc');
  });

  it('never leaves the site', () => {
    for (const next of [
      '//example.org',
      '/\\example.org',
      'https://example.org',
      'javascript:alert(1)',
      '/\t/x',
    ])
      expect(afterSignIn(`?next=${encodeURIComponent(next)}`), next).toBe('/dashboard');
  });
});
