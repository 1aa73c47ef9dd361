import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pins } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import type { CID } from 'multiformats/cid';
import { AppError, badRequest } from '../shared/errors';
import { createReclaimer } from '../shared/reclaim';
import type { PrivacyHold } from './block-privacy';
import { detectType, SNIFF_BYTES, Utf8Validator } from './mime';
import { insertPin, lockCid } from './pin-records';
import { quotaExceeded, type Reservation, remainingBytes, reserveStorage } from './quota';
import type { StorageServices } from './runtime';
import {
  privacyChanged,
  resolveVisibility,
  type VisibilityChoice,
  type VisibilityRequest,
} from './visibility';

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

/**
 * Streams a file into the node and pins it for `owner` (docs/storage.md, "Uploading"). The type comes from
 * the first bytes (415 before anything is written); the size limit is checked on every chunk (413 as
 * soon as it is crossed); text must stay UTF-8 to the end. The bytes go to a spool file first and reach
 * the node only once the whole file was received and accepted: a refused or failed upload (type, size,
 * not UTF-8, the client gone) leaves no block in any block store, nothing a peer or GET /ipfs/file could
 * read, and no pin or record.
 */
export async function uploadAndPin(svc: StorageServices, params: UploadParams): Promise<UploadResult> {
  // add and pin are one step for GC: between them the blocks are unpinned (docs/storage.md, "Garbage
  // collection"); the lease keeps every block the import writes or finds until the pin holds it
  const lease = svc.storage.node.protect?.();
  try {
    return await receiveAndPin(svc, params);
  } finally {
    lease?.release();
  }
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

async function receiveAndPin(svc: StorageServices, params: UploadParams): Promise<UploadResult> {
  const { maxFileSize, allowedFileTypes } = svc.config.storage;
  // the quota as it stands: the byte counter cuts the body as soon as it would pass it (docs/storage.md, "Quotas")
  const quota = await remainingBytes(svc, { userId: params.userId });
  const overQuota = () => quotaExceeded('PAYLOAD_TOO_LARGE', quota.used, quota.limit);
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
    if (headBytes > maxFileSize) throw tooLarge(maxFileSize);
    if (headBytes > quota.remaining) throw overQuota();
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
  const reclaim = createReclaimer();
  const counted = async function* () {
    const take = (chunk: Uint8Array) => {
      size += chunk.length;
      reclaim(chunk.length);
      if (size > maxFileSize) throw tooLarge(maxFileSize);
      if (size > quota.remaining) throw overQuota();
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
  let cid: CID;
  let reservation: Reservation | null = null;
  let choice: VisibilityChoice & { explicit: boolean };
  let hold: PrivacyHold | undefined;
  try {
    try {
      await pipeline(counted(), createWriteStream(spooled), { signal: params.signal });
      if (utf8 && !utf8.end()) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file is not UTF-8 text throughout', {
          reason: 'FILE_TYPE_NOT_ALLOWED',
        });
      }
      const requested =
        typeof params.visibility === 'function' ? await params.visibility() : (params.visibility ?? {});
      choice = {
        ...(await resolveVisibility(svc.db, { userId: params.userId, ...requested })),
        explicit: requested.visibility !== undefined,
      };
      // the exact check, under the user's quota lock: of concurrent uploads only those that fit together
      // pass, before anything reaches the node
      reservation = await reserveStorage(svc, { userId: params.userId, bytes: size });
      // a non-public file's blocks are refused to peers from the moment they are stored
      if (choice.visibility !== 'public') hold = svc.storage.node.privacy?.hold();
      // received whole and accepted: the import runs to its end even if the client leaves meanwhile, so a
      // stopped import cannot leave part of a file behind in the node
      cid = await svc.storage.node.add(createReadStream(spooled, { highWaterMark: SPOOL_READ }), { hold });
    } finally {
      await rm(spooled, { force: true });
    }
    return await recordUpload(svc, { ...params, cid, type, size, choice, hold, reservation });
  } finally {
    hold?.release();
    await reservation?.release();
  }
}

/**
 * The upload's pin record, in one transaction under the user's quota lock (the reservation is turned into
 * the pin's `stored_bytes`) and the CID's lock (the node pins it), with its visibility.
 */
async function recordUpload(
  svc: StorageServices,
  params: {
    userId: string;
    owner: string;
    filename?: string | null;
    cid: CID;
    type: { mime: string };
    size: number;
    choice: VisibilityChoice & { explicit: boolean };
    hold: PrivacyHold | undefined;
    reservation: Reservation;
  },
): Promise<UploadResult> {
  const { cid, type, size, choice, hold } = params;
  const cidText = cid.toV1().toString();
  const filename = cleanFilename(params.filename);
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ storedBytes: pins.storedBytes })
      .from(pins)
      .where(and(eq(pins.cid, cidText), eq(pins.owner, params.owner)))
      .limit(1);
    await params.reservation.confirm(tx, { replacedBytes: existing?.storedBytes ?? 0 });
    await lockCid(tx, cidText);
    await svc.storage.node.pin(cid, { signal: AbortSignal.timeout(svc.config.storage.timeoutMs), hold });
    const meta = { filename, mimetype: type.mime, size, storedBytes: size };
    const visibility = { visibility: choice.visibility, daoId: choice.daoId };
    const { row, created } = await insertPin(
      tx,
      { cid: cidText, owner: params.owner, userId: params.userId, status: 'pinned', ...meta, ...visibility },
      now,
    );
    if (!created) {
      // the owner uploads it again: a visibility asked for now applies, none keeps the one it has
      await tx
        .update(pins)
        .set({
          ...meta,
          ...(choice.explicit ? visibility : {}),
          status: 'pinned',
          failureReason: null,
          updatedAt: now,
        })
        .where(eq(pins.id, row.id));
    }
  });
  // the guard walks a non-public DAG before the hold on its blocks is released
  const guarded = privacyChanged(svc, cidText);
  if (hold) await guarded;
  svc.storage.events.emit('ipfs:write', {
    owner: { walletId: params.owner, userId: params.userId },
    content: cidText,
  });
  svc.storage.imported.add(cidText);
  svc.storage.events.emit('ipfs:pin', { cid: cidText, owner: params.owner });
  return { cid: cidText, size, mimetype: type.mime, filename };
}
