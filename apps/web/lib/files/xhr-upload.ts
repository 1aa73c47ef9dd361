import { networkError, restError } from './rest';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadRequest {
  url: string;
  method: 'POST' | 'PUT';
  /** the multipart field name the route reads (`file` for /ipfs/upload, `avatar` for avatars) */
  field: string;
  /** one file, or several parts each sent under its own name (a path inside a folder) */
  file: File | { file: File; name: string }[];
  /** text fields, sent before the files so that a streaming server reads them first */
  fields?: Record<string, string>;
  token: string | null;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * A multipart upload through XMLHttpRequest, because fetch reports no upload progress. Resolves with the
 * JSON body of a 2xx; rejects with a RestError carrying a readable message.
 */
export function xhrUpload<T>(req: UploadRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(req.method, req.url);
    if (req.token) xhr.setRequestHeader('authorization', `Bearer ${req.token}`);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) req.onProgress?.({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(restError(xhr.status, body));
    };
    // a server that refuses early (413) may close the connection while the body is still going out
    xhr.onerror = () =>
      reject(
        networkError(
          'The upload was interrupted: the server may have refused the file (too large?) or be unreachable.',
        ),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    req.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const [name, value] of Object.entries(req.fields ?? {})) form.append(name, value);
    const parts = req.file instanceof File ? [{ file: req.file, name: req.file.name }] : req.file;
    for (const part of parts) form.append(req.field, part.file, part.name);
    xhr.send(form);
  });
}
