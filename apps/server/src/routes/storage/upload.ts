import { storageOf } from '@plenum/api';
import {
  AppError,
  findProviderError,
  quotaExceeded,
  remainingBytes,
  tooLarge,
  uploadAndPin,
} from '@plenum/core';
import { receiveFile } from '../../http/multipart';
import { callerOf, type RouteContext } from '../../http/routes';
import { writerWallet } from './respond';
import { readVisibility } from './visibility';

/** multipart framing around one file: the boundary lines and part headers are far below this */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * POST /ipfs/upload: multipart field `file`, streamed into the node chunk by chunk (busboy → UnixFS
 * importer, with backpressure), never held whole. Refusals (413, 415) answer at once and stop reading
 * (the rest of the body is drained by the error path: http/pipeline.ts).
 */
export async function uploadFile(rc: RouteContext) {
  const { request, reply, log } = rc;
  const svc = storageOf(rc);
  const max = svc.config.storage.maxFileSize;
  const owner = await writerWallet(rc);
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? ''))
    throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data in the field "file"', {
      reason: 'MULTIPART_REQUIRED',
    });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) throw tooLarge(max);
  if (Number.isFinite(declared)) {
    // a body that cannot fit what is left of the quota is refused before it is read (docs/storage.md, "Quotas")
    const quota = await remainingBytes(svc, { userId: callerOf(rc).userId });
    if (declared > quota.remaining + MULTIPART_OVERHEAD)
      throw quotaExceeded('PAYLOAD_TOO_LARGE', quota.used, quota.limit);
  }

  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('client went away'));
  });
  try {
    const value = await receiveFile(request.raw, {
      field: 'file',
      maxFileSize: max,
      save: ({ stream, filename, fields }) =>
        uploadAndPin(svc, {
          userId: callerOf(rc).userId,
          owner,
          source: stream,
          filename,
          signal: abort.signal,
          // fields may follow the file: read once the file is in (docs/storage.md)
          visibility: async () => readVisibility(await fields()),
        }),
      missing: () =>
        new AppError('BAD_REQUEST', 'No file in the field "file"', {
          reason: 'FILE_REQUIRED',
          issues: [{ path: 'file', message: 'required' }],
        }),
    });
    reply.code(201);
    return value;
  } catch (err) {
    request.raw.unpipe();
    if (findProviderError(err) && !(err instanceof AppError)) log.warn({ err }, 'upload: node failed');
    throw err;
  }
}
