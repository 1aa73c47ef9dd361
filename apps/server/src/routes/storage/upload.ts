import { rm } from 'node:fs/promises';
import { storageOf } from '@plenum/api';
import {
  AppError,
  checkUploadPath,
  findProviderError,
  importFolder,
  importSpooledFile,
  quotaExceeded,
  remainingBytes,
  type SpooledFile,
  spoolFile,
  tooLarge,
  UPLOAD_MAX_FILES,
} from '@plenum/core';
import { receiveFiles } from '../../http/multipart-files';
import { callerOf, type RouteContext } from '../../http/routes';
import { writerWallet } from './respond';
import { readVisibility } from './visibility';

/** multipart framing: boundary lines and part headers (a folder's paths) are far below this per file */
const MULTIPART_OVERHEAD = 64 * 1024 + UPLOAD_MAX_FILES * 4096;

/** `wrapWithDirectory` as a query parameter or form field: true/false (1/0); anything else is a 400 */
function flag(value: string | null | undefined): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new AppError('BAD_REQUEST', 'wrapWithDirectory must be true or false', {
    reason: 'VALIDATION_FAILED',
    issues: [{ path: 'wrapWithDirectory', message: 'must be true or false' }],
  });
}

/**
 * POST /ipfs/upload: one file in the multipart field `file` (the answer of docs/storage.md, "Uploading"),
 * or several with `wrapWithDirectory=true` as one folder ("Folders and several files"). Each file is
 * streamed to its spool file with every upload rule (busboy → spool, with backpressure), never held
 * whole; the files together stay within MAX_FILE_SIZE. Only once the whole body was received and accepted
 * does anything reach the node. A refusal answers at once and stops reading (the rest of the body is
 * drained by the error path: http/pipeline.ts); every spool file of the upload is removed.
 */
export async function uploadFile(rc: RouteContext) {
  const { request, reply, log } = rc;
  const svc = storageOf(rc);
  const max = svc.config.storage.maxFileSize;
  const owner = await writerWallet(rc);
  const { userId } = callerOf(rc);
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? ''))
    throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data in the field "file"', {
      reason: 'MULTIPART_REQUIRED',
    });
  const wrapQuery = flag(rc.query.get('wrapWithDirectory'));
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) throw tooLarge(max);
  // the quota as it stands (docs/storage.md, "Quotas"): a body that cannot fit what is left is refused
  // before it is read; otherwise the byte counter cuts the files as soon as together they would pass it
  const quota = await remainingBytes(svc, { userId });
  if (Number.isFinite(declared) && declared > quota.remaining + MULTIPART_OVERHEAD)
    throw quotaExceeded('PAYLOAD_TOO_LARGE', quota.used, quota.limit);

  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('client went away'));
  });
  const spooled: { name: string | undefined; file: SpooledFile }[] = [];
  let total = 0;
  try {
    const { fields } = await receiveFiles(request.raw, {
      field: 'file',
      maxFiles: UPLOAD_MAX_FILES,
      maxFileSize: max,
      save: async ({ stream, filename }) => {
        // a folder's names are checked before its bytes are read, when the form already said so
        if (wrapQuery) checkUploadPath(filename);
        const file = await spoolFile(svc, {
          source: stream,
          signal: abort.signal,
          maxBytes: max - total,
          quota: { ...quota, remaining: quota.remaining - total },
        });
        if (abort.signal.aborted) {
          // the upload was refused meanwhile (its finally ran): this file goes too
          await rm(file.path, { force: true });
          return;
        }
        total += file.size;
        spooled.push({ name: filename, file });
      },
      missing: () =>
        new AppError('BAD_REQUEST', 'No file in the field "file"', {
          reason: 'FILE_REQUIRED',
          issues: [{ path: 'file', message: 'required' }],
        }),
    });
    const wrap = wrapQuery ?? flag(fields.wrapWithDirectory) ?? false;
    if (!wrap && spooled.length > 1)
      throw new AppError(
        'BAD_REQUEST',
        'Several files need wrapWithDirectory=true (they become one folder); or upload them one by one',
        { reason: 'WRAP_WITH_DIRECTORY_REQUIRED' },
      );
    // visibility and daoId are form fields like wrapWithDirectory, read once the whole body is in
    const visibility = readVisibility(fields);
    const value = wrap
      ? await importFolder(svc, {
          userId,
          owner,
          entries: spooled.map((s) => ({ path: checkUploadPath(s.name), spooled: s.file })),
          visibility,
        })
      : await importSpooledFile(svc, {
          userId,
          owner,
          spooled: spooled[0]!.file,
          filename: spooled[0]!.name,
          visibility,
        });
    reply.code(201);
    return value;
  } catch (err) {
    // a file still being spooled stops and removes its spool file
    abort.abort(err);
    request.raw.unpipe();
    if (findProviderError(err) && !(err instanceof AppError)) log.warn({ err }, 'upload: node failed');
    throw err;
  } finally {
    await Promise.all(spooled.map((s) => rm(s.file.path, { force: true })));
  }
}
