'use client';
import { useLocale, useTranslations } from 'next-intl';
import { formatSize, kindOf, type Refusal, refusedType } from '../../lib/files/limits';
import { readable } from '../../lib/files/readable';
import { RestError } from '../../lib/files/rest';

/**
 * Sizes, kinds of file and upload failures in words of the page's language: "1.2 MB is over the 1 MB
 * limit", "a web page (HTML)", never a byte count or a MIME type.
 */
export function useFileWords() {
  const t = useTranslations('files');
  const locale = useLocale();
  const size = (bytes: number) => formatSize(bytes, locale);
  const kind = (mime: string | null | undefined) => t(`types.${kindOf(mime)}`);
  const list = (mimes: string[]) =>
    new Intl.ListFormat(locale, { type: 'disjunction' }).format([
      ...new Set(mimes.map((m) => t(`typesPlural.${kindOf(m)}`))),
    ]);

  function refusal(r: Refusal, accepted: string[]) {
    return r.reason === 'tooLarge'
      ? t('upload.tooLarge', { size: size(r.size), max: size(r.max) })
      : t('upload.typeRefused', { kind: t(`types.${r.kind}`), accepted: list(accepted) });
  }

  /** why the server refused an upload, in words */
  function failure(
    err: unknown,
    limits: { maxFileSize: number; allowedFileTypes: string[] } | undefined,
    fileSize: number,
  ) {
    const shown = readable(err);
    if (err instanceof RestError && err.status === 413 && limits)
      return t('upload.tooLarge', { size: size(fileSize), max: size(limits.maxFileSize) });
    if (shown.reason === 'FILE_TYPE_NOT_ALLOWED') {
      const detected = refusedType(shown.message);
      const accepted = limits ? list(limits.allowedFileTypes) : '';
      return detected
        ? t('upload.typeRefused', { kind: kind(detected), accepted })
        : t('upload.notText', { accepted });
    }
    if (shown.reason === 'EMPTY_FILE') return t('upload.empty');
    return shown.message;
  }

  return { size, kind, list, refusal, failure };
}
