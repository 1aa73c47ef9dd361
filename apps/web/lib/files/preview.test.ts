import { describe, expect, it } from 'vitest';
import { previewKind } from './preview';

describe('previewKind', () => {
  it('shows only raster images inline', () => {
    for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])
      expect(previewKind(mime)).toBe('image');
  });

  it('never shows SVG or HTML (they can run scripts)', () => {
    expect(previewKind('image/svg+xml')).toBe('other');
    expect(previewKind('text/html')).toBe('other');
    expect(previewKind('application/xhtml+xml')).toBe('other');
  });

  it('frames PDF and plain text', () => {
    expect(previewKind('application/pdf')).toBe('pdf');
    expect(previewKind('text/plain')).toBe('text');
  });

  it('ignores parameters, case and spaces', () => {
    expect(previewKind('Text/Plain; charset=utf-8')).toBe('text');
    expect(previewKind(' IMAGE/PNG ')).toBe('image');
  });

  it('shows nothing for unknown or missing types', () => {
    for (const mime of ['', 'application/octet-stream', 'text/csv', 'video/mp4'])
      expect(previewKind(mime)).toBe('other');
  });
});
