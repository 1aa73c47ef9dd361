import { Readable } from 'node:stream';
import { storageOf } from '@plenum/api';
import {
  isActiveContent,
  type OpenedFile,
  openFile,
  openFileAtPath,
  parseCid,
  sessionEntityOf,
} from '@plenum/core';
import type { RouteContext } from '../../http/routes';

/**
 * GET /ipfs/file/{cid}: raw bytes (gateways first, then the node) with the type detected from the
 * bytes. Served so that a browser never runs it: nosniff, a sandboxing CSP, and `attachment` for
 * anything executable. Content addressing makes it immutable, so the CID is the ETag.
 */
export async function downloadFile(rc: RouteContext) {
  const { request, reply, params } = rc;
  const svc = storageOf(rc);
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort(new Error('client went away')));
  const { text: cid } = parseCid(params.cid ?? '');
  // a path in a folder is as immutable as the folder: the ETag names both
  const etag = params.path !== undefined ? `"${cid}/${encodeURIComponent(params.path)}"` : `"${cid}"`;
  const cache = 'public, max-age=31536000, immutable';
  if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag))
    return reply.code(304).headers({ ETag: etag, 'Cache-Control': cache }).send();
  const requester = await sessionEntityOf(svc, { userId: rc.principal?.userId });
  // GET /ipfs/file/{cid}/{path}: a file inside a folder (docs/storage.md, "Folders and several files")
  const file =
    params.path !== undefined
      ? await openFileAtPath(svc, { cid, path: params.path, requester, signal: abort.signal })
      : await openFile(svc, { cid, requester, signal: abort.signal });
  return sendFile(rc, file, { etag, cache, abort });
}

/** the bytes with the headers that keep a browser from running them (the same for a path in a folder) */
function sendFile(
  rc: RouteContext,
  file: OpenedFile,
  o: { etag: string; cache: string; abort: AbortController },
) {
  const { request, reply, log } = rc;
  const { etag, cache, abort } = o;
  const cid = file.cid;
  const disposition = isActiveContent(file.type.mime) ? 'attachment' : 'inline';
  reply.headers({
    'Content-Type': file.type.mime.startsWith('text/') ? `${file.type.mime}; charset=utf-8` : file.type.mime,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'",
    'Content-Disposition': `${disposition}; filename="${cid}.${file.type.ext}"`,
    'Cache-Control': cache,
    ETag: etag,
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  if (file.size !== undefined) reply.header('Content-Length', String(file.size));
  if (request.method === 'HEAD') return reply.send();
  const body = Readable.from(file.chunks);
  body.on('error', (err) => {
    if (!abort.signal.aborted) log.warn({ err, cid }, 'file stream broke off');
  });
  return reply.send(body);
}
