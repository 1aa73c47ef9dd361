'use client';
import { useApiUrl } from '../../lib/api-url';
import { formatBytes } from '../../lib/files/format';
import { fileUrl } from '../../lib/files/pins';
import { previewKind, useFileType } from '../../lib/files/preview';
import { readable } from '../../lib/files/readable';
import { ErrorAlert } from '../alert';

/**
 * A safe preview of a CID's bytes as the API serves them (nosniff, a sandboxing CSP): raster images in
 * an <img>, plain text in a frame with every sandbox restriction on, PDFs as a link. HTML, SVG and
 * anything else is never rendered here, only offered as a download.
 */
export function FilePreview({ cid }: { cid: string }) {
  const apiUrl = useApiUrl();
  const url = fileUrl(apiUrl, cid);
  const type = useFileType(url, true);
  if (type.isPending) return <p aria-live="polite">Loading the preview…</p>;
  if (type.isError) return <ErrorAlert error={readable(type.error)} />;
  const kind = previewKind(type.data.mime);
  const size = type.data.size === null ? '' : `, ${formatBytes(type.data.size)}`;
  return (
    <figure className="preview" data-testid="preview" data-kind={kind}>
      {kind === 'image' && <img src={url} alt={`Preview of ${cid}`} />}
      {kind === 'text' && <iframe src={url} sandbox="" title={`Text of ${cid}`} loading="lazy" />}
      {kind === 'pdf' && (
        <p>
          PDF documents open in a new tab:{' '}
          <a href={url} target="_blank" rel="noopener noreferrer">
            open the PDF
          </a>
          .
        </p>
      )}
      {kind === 'other' && <p>No preview for this type of file.</p>}
      <figcaption className="muted">
        {type.data.mime}
        {size} ·{' '}
        <a href={url} download target="_blank" rel="noopener noreferrer">
          Download
        </a>
      </figcaption>
    </figure>
  );
}
