import { Readable } from 'node:stream';
import { storageOf } from '@plenum/api';
import {
  checkFolderRead,
  isActiveContent,
  type OpenedFile,
  openFile,
  openFileAtPath,
  openLink,
  parseCid,
  requireReadable,
  sessionEntityOf,
} from '@plenum/core';
import type { RouteContext } from '../../http/routes';

const PUBLIC_CACHE = 'public, max-age=31536000, immutable';
/** a file only some may read: no shared cache keeps it, and the browser does not store it */
const PRIVATE_CACHE = 'private, no-store';

/**
 * GET /ipfs/file/{cid} and GET /ipfs/file/{cid}/{path}: raw bytes (gateways first, then the node) with
 * the type detected from the bytes. Served so that a browser never runs it: nosniff, a sandboxing CSP,
 * and `attachment` for anything executable. Content addressing makes it immutable, so the CID (with the
 * path) is the ETag; a revalidation (If-None-Match) is a 304 for any CID. Otherwise who may read is decided on
 * the CID in the URL, a folder's for a path inside it, before the path is resolved: a file the caller may not
 * read, or any path in a folder they may not read, is the same 404 as an absent one (docs/storage.md, "Folders and several files").
 */
export async function downloadFile(rc: RouteContext) {
  const { request, reply, params } = rc;
  const svc = storageOf(rc);
  const { text: cid } = parseCid(params.cid ?? '');
  // a bad path is a 400 for every CID, before who may read is asked (no answer tells hidden from absent)
  const path = params.path !== undefined ? checkFolderRead(cid, params.path).path : undefined;
  // a path in a folder is as immutable as the folder: the ETag names both
  const etag = path !== undefined ? `"${cid}/${encodeURIComponent(path)}"` : `"${cid}"`;
  // a revalidation is answered before anything is looked up, the same for every CID (absent, public or
  // hidden alike): it sends no content, and answering it after the access check told hidden from absent
  if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag))
    return reply.code(304).headers({ ETag: etag, 'Cache-Control': PUBLIC_CACHE }).send();
  const open = await requireReadable(svc, { cid, userId: rc.principal?.userId });
  return sendFile(rc, { cid, path }, { public: open }, etag);
}

/**
 * GET /ipfs/shared/{token}: the file of a signed link, without credentials, with the same headers as
 * /ipfs/file/{cid} (docs/storage.md, "Signed links"); never cached by shared caches, since the link ends.
 */
export async function downloadShared(rc: RouteContext) {
  const svc = storageOf(rc);
  const link = await openLink(svc, { token: rc.params.token ?? '' });
  rc.reply.header('Referrer-Policy', 'no-referrer');
  return sendFile(rc, { cid: link.cid }, { public: false }, `"${link.cid}"`);
}

async function sendFile(
  rc: RouteContext,
  target: { cid: string; path?: string | undefined },
  checked: { public: boolean },
  etag: string,
) {
  const { request, reply, log } = rc;
  const svc = storageOf(rc);
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort(new Error('client went away')));
  const requester = await sessionEntityOf(svc, { userId: rc.principal?.userId });
  const file: OpenedFile =
    target.path !== undefined
      ? await openFileAtPath(svc, { ...target, path: target.path, requester, signal: abort.signal, checked })
      : await openFile(svc, { cid: target.cid, requester, signal: abort.signal, checked });
  const cid = file.cid;
  const disposition = isActiveContent(file.type.mime) ? 'attachment' : 'inline';
  reply.headers({
    'Content-Type': file.type.mime.startsWith('text/') ? `${file.type.mime}; charset=utf-8` : file.type.mime,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'",
    'Content-Disposition': `${disposition}; filename="${cid}.${file.type.ext}"`,
    'Cache-Control': checked.public ? PUBLIC_CACHE : PRIVATE_CACHE,
    ETag: etag,
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  if (file.size !== undefined) reply.header('Content-Length', String(file.size));
  // HEAD: an empty stream, because Fastify's HEAD route answers an empty send() with Content-Length: 0,
  // which said "0 bytes" for every file (docs/storage.md, "Reading")
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  const body = Readable.from(file.chunks);
  body.on('error', (err) => {
    if (!abort.signal.aborted) log.warn({ err, cid }, 'file stream broke off');
  });
  return reply.send(body);
}
