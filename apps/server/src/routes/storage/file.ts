import { Readable } from 'node:stream';
import { storageOf } from '@plenum/api';
import { isActiveContent, openFile, parseCid, sessionEntityOf } from '@plenum/core';
import type { RouteContext } from '../../http/routes';

/**
 * GET /ipfs/file/{cid}: raw bytes (gateways first, then the node) with the type detected from the
 * bytes. Served so that a browser never runs it: nosniff, a sandboxing CSP, and `attachment` for
 * anything executable. Content addressing makes it immutable, so the CID is the ETag.
 */
export async function downloadFile(rc: RouteContext) {
  const { request, reply, log, params } = rc;
  const svc = storageOf(rc);
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort(new Error('client went away')));
  const { text: cid } = parseCid(params.cid ?? '');
  const etag = `"${cid}"`;
  const cache = 'public, max-age=31536000, immutable';
  if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag))
    return reply.code(304).headers({ ETag: etag, 'Cache-Control': cache }).send();
  const file = await openFile(svc, {
    cid,
    requester: await sessionEntityOf(svc, { userId: rc.principal?.userId }),
    signal: abort.signal,
  });
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
  // HEAD: an empty stream, because Fastify's HEAD route answers an empty send() with Content-Length: 0,
  // which said "0 bytes" for every file (docs/storage.md, "Reading")
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  const body = Readable.from(file.chunks);
  body.on('error', (err) => {
    if (!abort.signal.aborted) log.warn({ err, cid }, 'file stream broke off');
  });
  return reply.send(body);
}
