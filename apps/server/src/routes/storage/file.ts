import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isActiveContent, openFile, parseCid, sessionEntityOf } from '@plenum/core';
import type { RouteContext } from '../../http/routes';
import { sendFailure, storageServices } from './respond';

/**
 * GET /ipfs/file/{cid}: raw bytes (gateways first, then the node) with the type detected from the
 * bytes. Served so that a browser never runs it: nosniff, a sandboxing CSP, and `attachment` for
 * anything executable. Content addressing makes it immutable, so the CID is the ETag.
 */
export async function downloadFile(rc: RouteContext) {
  const { req, res, log, params } = rc;
  const svc = storageServices(rc);
  const abort = new AbortController();
  res.on('close', () => abort.abort(new Error('client went away')));
  try {
    const { text: cid } = parseCid(params.cid ?? '');
    const etag = `"${cid}"`;
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) {
      res.writeHead(304, { ETag: etag, 'Cache-Control': 'public, max-age=31536000, immutable' });
      res.end();
      return;
    }
    const file = await openFile(svc, {
      cid,
      requester: await sessionEntityOf(svc, rc.principal?.userId),
      signal: abort.signal,
    });
    const disposition = isActiveContent(file.type.mime) ? 'attachment' : 'inline';
    const headers: Record<string, string> = {
      'Content-Type': file.type.mime.startsWith('text/')
        ? `${file.type.mime}; charset=utf-8`
        : file.type.mime,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'",
      'Content-Disposition': `${disposition}; filename="${cid}.${file.type.ext}"`,
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: etag,
      'Cross-Origin-Resource-Policy': 'cross-origin',
    };
    if (file.size !== undefined) headers['Content-Length'] = String(file.size);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await pipeline(Readable.from(file.chunks), res).catch((err: unknown) => {
      if (!abort.signal.aborted) log.warn({ err, cid }, 'file stream broke off');
      res.destroy();
    });
  } catch (err) {
    if (!res.headersSent) sendFailure(res, log, err);
    else res.destroy();
  }
}
