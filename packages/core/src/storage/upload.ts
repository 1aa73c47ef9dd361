import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CID } from 'multiformats/cid';
import { AppError, badRequest } from '../shared/errors';
import { createReclaimer } from '../shared/reclaim';
import { importAndPin } from './import-pin';
import { type DetectedType, detectType, SNIFF_BYTES, Utf8Validator } from './mime';
import { quotaExceeded, remainingBytes } from './quota';
import type { StorageServices } from './runtime';
import type { VisibilityRequest } from './visibility';

export interface UploadResult {
  cid: string;
  size: number;
  mimetype: string;
  filename: string | null;
}

export const tooLarge = (max: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The file exceeds the limit of ${max} bytes`, {
    reason: 'FILE_TOO_LARGE',
  });

/** keeps a client's file name displayable and harmless: base name, no control characters, ≤ 255 */
export function cleanFilename(name: string | null | undefined): string | null {
  if (!name) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return base ? base.slice(0, 255) : null;
}

/** the spool's read size: one leaf of the DAG (leaf-pool.ts), so the importer copies whole reads */
const SPOOL_READ = 1_048_576;

export interface SpooledFile {
  /** the spool file holding the accepted bytes; the caller removes it */
  path: string;
  size: number;
  type: DetectedType;
}

/** what is left of a user's quota as remainingBytes said (no lock: the byte counter's early cut) */
export interface QuotaLeft {
  remaining: number;
  used: number;
  limit: number;
}

/**
 * Receives one file into a spool file under DATA_DIR/upload-spool with every upload rule (docs/storage.md,
 * "Uploading"): the type from the first bytes (415 before anything is written), the size on every chunk
 * (413 as soon as `maxBytes` is crossed, or `quota.remaining`: 413 QUOTA_EXCEEDED, "Quotas"), UTF-8 to
 * the end for text. On a refusal the spool file is gone. `reclaim` lets several files of one upload share
 * one young-generation collector (shared/reclaim.ts).
 */
export async function spoolFile(
  svc: StorageServices,
  params: {
    source: AsyncIterable<Uint8Array>;
    signal?: AbortSignal | undefined;
    /** the limit for this file (default MAX_FILE_SIZE); the error names MAX_FILE_SIZE */
    maxBytes?: number;
    /** what this file may still take of the quota; absent: no early cut */
    quota?: QuotaLeft | undefined;
    reclaim?: (bytes: number) => void;
  },
): Promise<SpooledFile> {
  const { maxFileSize, allowedFileTypes } = svc.config.storage;
  const limit = params.maxBytes ?? maxFileSize;
  const quota = params.quota;
  const overQuota = () => quotaExceeded('PAYLOAD_TOO_LARGE', quota?.used ?? 0, quota?.limit ?? 0);
  const it = params.source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < SNIFF_BYTES) {
    const next = await it.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
    if (headBytes > limit) throw tooLarge(maxFileSize);
    if (quota && headBytes > quota.remaining) throw overQuota();
  }
  if (headBytes === 0)
    throw badRequest('The file is empty', [{ path: 'file', message: 'empty file' }], 'EMPTY_FILE');
  const type = await detectType(Buffer.concat(head));
  if (!allowedFileTypes.includes(type.mime)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${type.mime} are not allowed`, {
      reason: 'FILE_TYPE_NOT_ALLOWED',
    });
  }
  const utf8 = type.mime.startsWith('text/') ? new Utf8Validator() : null;
  let size = 0;
  const reclaim = params.reclaim ?? createReclaimer();
  const counted = async function* () {
    const take = (chunk: Uint8Array) => {
      size += chunk.length;
      reclaim(chunk.length);
      if (size > limit) throw tooLarge(maxFileSize);
      if (quota && size > quota.remaining) throw overQuota();
      utf8?.push(chunk);
      return chunk;
    };
    for (const c of head) yield take(c);
    if (ended) return;
    while (true) {
      const next = await it.next();
      if (next.done) return;
      yield take(next.value);
    }
  };
  const spooled = path.join(svc.storage.spoolDir, randomUUID());
  try {
    await pipeline(counted(), createWriteStream(spooled), { signal: params.signal });
    if (utf8 && !utf8.end()) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file is not UTF-8 text throughout', {
        reason: 'FILE_TYPE_NOT_ALLOWED',
      });
    }
  } catch (err) {
    await rm(spooled, { force: true });
    throw err;
  }
  return { path: spooled, size, type };
}

/** a spool file read back in the DAG's leaf size (leaf-pool.ts), so the importer copies whole reads */
export const readSpool = (file: string) => createReadStream(file, { highWaterMark: SPOOL_READ });

/**
 * Streams a file into the node and pins it for `owner` (docs/storage.md, "Uploading"). The bytes go to a
 * spool file first (spoolFile: type, size, quota, UTF-8) and reach the node only once the whole file was
 * received and accepted: a refused or failed upload (type, size, quota, not UTF-8, the client gone)
 * leaves no block in any block store, nothing a peer or GET /ipfs/file could read, and no pin or record.
 */
export async function uploadAndPin(svc: StorageServices, params: UploadParams): Promise<UploadResult> {
  // the quota as it stands: the byte counter cuts the body as soon as it would pass it (docs/storage.md, "Quotas")
  const quota = await remainingBytes(svc, { userId: params.userId });
  const spooled = await spoolFile(svc, { source: params.source, signal: params.signal, quota });
  return importSpooledFile(svc, { ...params, spooled });
}

export interface UploadParams {
  userId: string;
  owner: string;
  source: AsyncIterable<Uint8Array>;
  filename?: string | null;
  signal?: AbortSignal;
  /**
   * who may read it (docs/storage.md, "Private and members-only files"); a function when the request
   * may carry the choice after the file (multipart fields after the file part): it is asked once the
   * file was received, before anything reaches the node
   */
  visibility?: VisibilityRequest | (() => Promise<VisibilityRequest>);
}

/**
 * The node imports an accepted spool file (then removes it), pins it and records the owner's pin, in
 * importAndPin's order (GC lease, visibility, quota reservation, privacy hold, import, record).
 */
export async function importSpooledFile(
  svc: StorageServices,
  params: {
    userId: string;
    owner: string;
    spooled: SpooledFile;
    filename?: string | null | undefined;
    visibility?: UploadParams['visibility'] | undefined;
  },
): Promise<UploadResult> {
  const { spooled } = params;
  const { size, type } = spooled;
  const filename = cleanFilename(params.filename);
  try {
    return await importAndPin(
      svc,
      { userId: params.userId, owner: params.owner, bytes: size, visibility: params.visibility },
      async (hold) => {
        // received whole and accepted: the import runs to its end even if the client leaves meanwhile, so
        // a stopped import cannot leave part of a file behind in the node
        const cid: CID = await svc.storage.node.add(readSpool(spooled.path), { hold });
        return {
          roots: [{ cid, filename, mimetype: type.mime, size, storedBytes: size }],
          result: { cid: cid.toV1().toString(), size, mimetype: type.mime, filename },
        };
      },
    );
  } finally {
    await rm(spooled.path, { force: true });
  }
}
