'use client';
import { useTranslations } from 'next-intl';
import { useApiUrl } from '../../lib/api-url';
import { fileUrl } from '../../lib/files/pins';
import { previewKind, useFileType } from '../../lib/files/preview';
import { QueryState } from '../ui/query-state';
import { useFileWords } from './use-file-words';

/**
 * A safe preview of a CID's bytes as the API serves them (nosniff, a sandboxing CSP): raster images in
 * an <img>, plain text in a frame with every sandbox restriction on, PDFs as a link. HTML, SVG and
 * anything else is never rendered here, only offered as a download.
 */
export function FilePreview({ cid }: { cid: string }) {
  const t = useTranslations('files.preview');
  const words = useFileWords();
  const apiUrl = useApiUrl();
  const url = fileUrl(apiUrl, cid);
  const type = useFileType(url, true);
  return (
    <QueryState query={type}>
      {(data) => {
        const kind = previewKind(data.mime);
        return (
          <figure className="m-0 grid min-w-0 gap-2" data-testid="preview" data-kind={kind}>
            {kind === 'image' && (
              <img
                src={url}
                alt={t('imageAlt', { cid })}
                className="max-h-80 max-w-full rounded-md border object-contain"
              />
            )}
            {kind === 'text' && (
              <iframe
                src={url}
                sandbox=""
                title={t('textTitle', { cid })}
                loading="lazy"
                className="h-48 w-full rounded-md border bg-background"
              />
            )}
            {kind === 'pdf' && (
              <p className="m-0">
                {t.rich('pdf', {
                  link: (chunks) => (
                    <a href={url} target="_blank" rel="noopener noreferrer">
                      {chunks}
                    </a>
                  ),
                })}
              </p>
            )}
            {kind === 'other' && <p className="m-0">{t('none')}</p>}
            <figcaption className="text-sm text-muted-foreground">
              {words.kind(data.mime)},{' '}
              <span data-testid="preview-size">
                {data.size !== null ? words.size(data.size) : t('sizeUnknown')}
              </span>{' '}
              ·{' '}
              <a href={url} download target="_blank" rel="noopener noreferrer">
                {t('download')}
              </a>
            </figcaption>
          </figure>
        );
      }}
    </QueryState>
  );
}
