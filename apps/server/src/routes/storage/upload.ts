import type { IncomingMessage } from 'node:http';
import { AppError, findProviderError, tooLarge, uploadAndPin } from '@plenum/core';
import { receiveFile } from '../../http/multipart';
import { sendJson } from '../../http/respond';
import type { RouteContext } from '../../http/routes';
import { sendFailure, storageServices, writerWallet } from './respond';

/** multipart framing around one file: the boundary lines and part headers are far below this */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * POST /ipfs/upload: multipart field `file`, streamed into the node chunk by chunk (busboy → UnixFS
 * importer, with backpressure), never held whole. Refusals (413, 415) answer at once and stop reading.
 */
export async function uploadFile(rc: RouteContext) {
  const { req, res, log } = rc;
  const svc = storageServices(rc);
  const max = svc.config.storage.maxFileSize;
  let owner: string;
  try {
    owner = await writerWallet(rc);
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? ''))
      throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data in the field "file"', {
        reason: 'MULTIPART_REQUIRED',
      });
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) throw tooLarge(max);
  } catch (err) {
    return refuse(rc, err);
  }

  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client went away'));
  });
  let result: { ok: true; value: unknown } | { ok: false; err: unknown };
  try {
    const value = await receiveFile(req, {
      field: 'file',
      maxFileSize: max,
      save: ({ stream, filename }) =>
        uploadAndPin(svc, {
          userId: rc.principal!.userId,
          owner,
          source: stream,
          filename,
          signal: abort.signal,
        }),
      missing: () =>
        new AppError('BAD_REQUEST', 'No file in the field "file"', {
          reason: 'FILE_REQUIRED',
          issues: [{ path: 'file', message: 'required' }],
        }),
    });
    result = { ok: true, value };
  } catch (err) {
    result = { ok: false, err };
  }

  if (result.ok) return sendJson(res, 201, result.value);
  req.unpipe();
  const pe = findProviderError(result.err);
  if (pe && !(result.err instanceof AppError)) log.warn({ err: result.err }, 'upload: node failed');
  return refuse(rc, result.err);
}

/**
 * Answers a refused upload at once and stops storing: the rest of the body is drained (not stored)
 * for up to 5 s so the client can read the answer, then the connection is closed. No
 * `Connection: close` header: with it Node destroys the socket as soon as the answer is written,
 * unread body bytes make the kernel reset the connection, and a client still sending then sees
 * EPIPE/ECONNRESET instead of the 413 (about half the time on loopback).
 */
function refuse(rc: RouteContext, err: unknown) {
  const { req, res, log } = rc;
  let e: unknown = err;
  // the UnixFS importer may wrap the error our byte counter threw
  for (let i = 0; i < 5 && e && !(e instanceof AppError); i++) e = (e as { cause?: unknown }).cause;
  sendFailure(res, log, e instanceof AppError ? e : err);
  drain(req);
}

function drain(req: IncomingMessage) {
  if (req.readableEnded) return;
  const timer = setTimeout(() => req.socket.destroy(), 5_000);
  timer.unref();
  req.on('end', () => clearTimeout(timer));
  req.resume();
}
