import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { avatarDir, type Logger } from '@plenum/core';
import type { PluginContext, ServerPlugin } from '../../http/routes';
import { downloadAvatar } from './avatar-download';
import { uploadAvatar } from './avatar-upload';
import { usersOpenApiPaths } from './openapi';

/** a partial upload older than this was left by a crash (several instances may share the directory) */
const STALE_PART_MS = 60 * 60_000;

/** The users domain's plain routes: avatar upload (streamed multipart) and download (raw bytes). */
export async function usersPlugin({ svc }: PluginContext): Promise<ServerPlugin> {
  const dir = avatarDir(svc);
  await mkdir(dir, { recursive: true });
  await sweepStaleParts(dir, svc.clock.now().getTime(), svc.log);
  return {
    name: 'users',
    routes: [
      { method: 'PUT', path: '/users/{id}/avatar', handler: uploadAvatar },
      { method: 'GET', path: '/users/{id}/avatar', handler: downloadAvatar },
    ],
    openapiPaths: usersOpenApiPaths,
  };
}

export async function sweepStaleParts(dir: string, now: number, log: Logger) {
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.part')) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > STALE_PART_MS)
      await unlink(file).catch((err: unknown) =>
        log.warn({ err, file }, 'could not remove a stale partial avatar'),
      );
  }
}
