import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { users } from '@plenum/db';
import type { IssueCode, Reason } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Services } from '../services';
import { AppError, badRequest, forbidden, notFound } from '../shared/errors';
import { type Actor, assertOwner, loadLiveUser, lockLiveUser } from './access';

/** Raster types an avatar may have; a configured name outside this map (svg, html…) is never allowed. */
const KNOWN_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** file-type needs at most this many leading bytes to recognise a format */
const SNIFF_BYTES = 4100;

export const avatarDir = (svc: Pick<Services, 'config'>) => path.join(svc.config.users.uploadPath, 'avatars');
export const avatarUrlOf = (userId: string) => `/users/${userId}/avatar`;

export function allowedAvatarMimes(allowedImageTypes: string[]): Set<string> {
  const mimes = allowedImageTypes.map(
    (t) => KNOWN_TYPES[t.toLowerCase()] ?? (Object.values(KNOWN_TYPES).includes(t) ? t : undefined),
  );
  return new Set(mimes.filter((m): m is string => Boolean(m)));
}

const rule = (message: string, reason: Reason & IssueCode) =>
  badRequest(message, [{ path: 'avatar', message, code: reason }], reason);

/** Upload rules run before the body is read: feature switch, the account exists, the caller owns it. */
export async function assertCanUploadAvatar(svc: Services, params: { actor: Actor; id: string }) {
  if (!svc.config.users.enableProfilePictures)
    throw rule('Profile pictures are disabled', 'FEATURE_DISABLED');
  const user = await loadLiveUser(svc.db, params.id);
  assertOwner(params.actor, user.id);
}

/**
 * Streams an avatar to UPLOAD_PATH: the type comes from the leading bytes (never the name or the
 * declared type), the size is cut off while streaming. The new file is committed with the user row;
 * the old file is removed afterwards, and a failure to remove it is only logged.
 */
export async function saveAvatar(
  svc: Services,
  params: { actor: Actor; id: string; source: AsyncIterable<Uint8Array> },
): Promise<{ avatarUrl: string }> {
  await assertCanUploadAvatar(svc, params);
  const { maxAvatarSize, allowedImageTypes } = svc.config.users;
  const tooLarge = () => rule(`The avatar is larger than ${maxAvatarSize} bytes`, 'AVATAR_TOO_LARGE');
  const it = params.source[Symbol.asyncIterator]();
  // a source that fails (client gone, malformed form) is the client's problem, not a storage failure
  const read = async () => {
    try {
      return await it.next();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw rule('The upload ended before the file was complete', 'UPLOAD_INCOMPLETE');
    }
  };

  // 1. the leading bytes decide the type before anything is written
  const headChunks: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < SNIFF_BYTES) {
    const next = await read();
    if (next.done) {
      done = true;
      break;
    }
    headChunks.push(Buffer.from(next.value));
    size += next.value.length;
    if (size > maxAvatarSize) throw tooLarge();
  }
  if (size === 0) throw rule('The avatar file is empty', 'AVATAR_EMPTY');
  const head = Buffer.concat(headChunks);
  const detected = await fileTypeFromBuffer(head);
  const allowed = allowedAvatarMimes(allowedImageTypes);
  if (!detected || !allowed.has(detected.mime)) {
    throw rule(
      `The avatar must be an image of type ${[...allowed].join(', ')} (recognised from its content)`,
      'AVATAR_TYPE_NOT_ALLOWED',
    );
  }

  // 2. stream the rest into a private temporary file, counting
  const dir = avatarDir(svc);
  const name = `${params.id}-${randomBytes(8).toString('hex')}.${detected.ext}`;
  const tmp = path.join(dir, `.${name}.part`);
  const final = path.join(dir, name);
  try {
    await mkdir(dir, { recursive: true });
    await pipeline(
      async function* () {
        yield head;
        while (!done) {
          const next = await read();
          if (next.done) break;
          size += next.value.length;
          if (size > maxAvatarSize) throw tooLarge();
          yield next.value;
        }
      },
      createWriteStream(tmp, { flags: 'wx', mode: 0o640 }),
    );
    await rename(tmp, final);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    if (err instanceof AppError) throw err;
    svc.log.error({ err }, 'avatar storage failed');
    throw rule('The avatar could not be stored', 'AVATAR_STORAGE_FAILED');
  }

  // 3. point the user at the new file; the row lock orders concurrent uploads of one user
  let oldFile: string | null = null;
  try {
    await svc.db.transaction(async (tx) => {
      const user = await lockLiveUser(tx, params.id);
      assertOwner(params.actor, user.id);
      oldFile = user.avatarFile;
      await tx
        .update(users)
        .set({
          avatarFile: name,
          avatarMime: detected.mime,
          avatarUrl: avatarUrlOf(user.id),
          updatedAt: svc.clock.now(),
        })
        .where(eq(users.id, user.id));
    });
  } catch (err) {
    await unlink(final).catch(() => {});
    throw err;
  }
  if (oldFile && oldFile !== name) {
    await unlink(path.join(dir, oldFile)).catch((err: unknown) =>
      svc.log.warn({ err, userId: params.id }, 'could not delete the previous avatar file'),
    );
  }
  return { avatarUrl: avatarUrlOf(params.id) };
}

/**
 * Where GET /users/{id}/avatar finds the picture. The owner and admins always see it; others when the
 * profile is public (and public profiles are allowed).
 */
export async function locateAvatar(svc: Services, params: { requester: Actor | null; id: string }) {
  const cfg = svc.config.users;
  if (!cfg.enableProfilePictures) throw notFound('Profile pictures are disabled');
  const user = await loadLiveUser(svc.db, params.id);
  const privileged =
    params.requester && (params.requester.userId === user.id || params.requester.role === 'admin');
  if (!privileged && (user.profileVisibility !== 'public' || !cfg.allowPublicProfiles))
    throw forbidden('This profile is private', 'PROFILE_PRIVATE');
  if (!user.avatarFile || !user.avatarMime) throw notFound('This user has no avatar');
  const file = path.join(avatarDir(svc), path.basename(user.avatarFile));
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    svc.log.warn({ userId: user.id }, 'avatar file missing on disk');
    throw notFound('This user has no avatar');
  }
  return { file, mime: user.avatarMime, size: info.size, etag: `"${user.avatarFile}"` };
}
