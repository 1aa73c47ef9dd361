import { storageOf } from '@plenum/api';
import { AppError, findProviderError, importCar, tooLarge } from '@plenum/core';
import { mediaType } from '../../http/body';
import { callerOf, type RouteContext } from '../../http/routes';
import { writerWallet } from './respond';
import { readVisibility } from './visibility';

/**
 * POST /ipfs/car: a CAR body (`application/vnd.ipld.car`), streamed to its spool file, every block checked
 * against its CID, the roots pinned for the caller (docs/storage.md, "CAR import"), public or as the query's
 * `visibility` and `daoId` say (the body is the CAR). A refusal answers at once; the rest of the body is
 * drained by the error path (http/pipeline.ts).
 */
export async function importCarRoute(rc: RouteContext) {
  const { request, reply, log } = rc;
  const svc = storageOf(rc);
  const max = svc.config.storage.maxFileSize;
  const owner = await writerWallet(rc);
  if (mediaType(request) !== 'application/vnd.ipld.car')
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the CAR with Content-Type: application/vnd.ipld.car', {
      reason: 'CAR_REQUIRED',
    });
  const visibility = readVisibility(Object.fromEntries(rc.query));
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('client went away'));
  });
  try {
    const result = await importCar(svc, {
      userId: callerOf(rc).userId,
      owner,
      source: request.raw,
      signal: abort.signal,
      visibility,
    });
    reply.code(201);
    return result;
  } catch (err) {
    request.raw.unpipe();
    if (findProviderError(err) && !(err instanceof AppError)) log.warn({ err }, 'CAR import: node failed');
    throw err;
  }
}
