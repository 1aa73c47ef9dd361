'use client';
import { useQuery } from '@tanstack/react-query';
import { restError } from './rest';

export type PreviewKind = 'image' | 'pdf' | 'text' | 'other';

/** How a type may be shown: only raster images inline; PDF and text in a sandboxed frame; nothing else. */
export function previewKind(mime: string): PreviewKind {
  const type = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  if (['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'].includes(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/plain') return 'text';
  return 'other';
}

/**
 * The type the API detected from the bytes (its Content-Type, a CORS-safelisted header), read with
 * HEAD so nothing is downloaded before the person asks to preview.
 */
export function useFileType(url: string, enabled: boolean) {
  return useQuery({
    queryKey: ['files', 'type', url],
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    queryFn: async () => {
      const res = await fetch(url, { method: 'HEAD' });
      if (!res.ok) throw restError(res.status, null);
      const mime = res.headers.get('content-type') ?? 'application/octet-stream';
      // no Content-Length (a Kubo read gives no size) is an unknown size, never 0 bytes
      const length = res.headers.get('content-length');
      const size = length ? Number(length) : Number.NaN;
      return { mime: mime.split(';')[0] ?? mime, size: Number.isFinite(size) ? size : null };
    },
  });
}
