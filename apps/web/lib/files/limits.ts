/**
 * Upload limits as the server states them (system.info → uploads) and the checks a page makes before
 * sending a file, so that a file over the limit is refused at once instead of at 80 %.
 */
export interface UploadLimits {
  maxFileSize: number;
  allowedFileTypes: string[];
}

/** the kinds of file a person recognises, by MIME type; the keys of `files.types` in the messages */
const KINDS: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'text/plain': 'text',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/json': 'json',
  'application/zip': 'zip',
  'video/mp4': 'video',
  'audio/mpeg': 'audio',
  // a folder uploaded as one (docs/storage.md, "Folders and several files")
  'inode/directory': 'folder',
};

/** "image/png; charset=…" → "png" (a key of `files.types`), or "other" */
export function kindOf(mime: string | null | undefined): string {
  const type = mime?.split(';')[0]?.trim().toLowerCase() ?? '';
  return KINDS[type] ?? (type.startsWith('image/') ? 'image' : type.startsWith('text/') ? 'text' : 'other');
}

/**
 * A size in the person's language, in 1024-steps named as file managers name them: 1,258,291 bytes →
 * "1.2 MB" (en) / "1,2 MB" (de); 104,857,600 → "100 MB".
 */
export function formatSize(bytes: number, locale = 'en'): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[i],
    unitDisplay: i === 0 ? 'long' : 'short',
    maximumFractionDigits: i === 0 || value >= 10 ? 0 : 1,
  }).format(value);
}

export type Refusal = { reason: 'tooLarge'; size: number; max: number } | { reason: 'type'; kind: string };

/**
 * Whether a chosen file is refused before it is sent. The size is certain. The type the browser reports
 * is only a hint (the server decides from the bytes), so only a type that the server would certainly
 * refuse is refused here; an unknown type, or text the server may accept as plain text, goes to the server.
 */
export function refusal(file: { size: number; type: string }, limits: UploadLimits): Refusal | null {
  if (file.size > limits.maxFileSize) return { reason: 'tooLarge', size: file.size, max: limits.maxFileSize };
  const type = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!type || limits.allowedFileTypes.includes(type)) return null;
  const textAllowed = limits.allowedFileTypes.includes('text/plain');
  const maybeText =
    (type.startsWith('text/') && kindOf(type) !== 'html') ||
    type === 'application/json' ||
    type.endsWith('+json');
  if (textAllowed && maybeText) return null;
  return { reason: 'type', kind: kindOf(type) };
}

/** the type the server detected, from its refusal ("Files of type text/html are not allowed") */
export function refusedType(message: string | undefined): string | null {
  return message?.match(/^Files of type (\S+) are not allowed/)?.[1] ?? null;
}
