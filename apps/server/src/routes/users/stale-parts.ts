import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@plenum/core';

/** a partial upload older than this was left by a crash (several instances may share the directory) */
const STALE_PART_MS = 60 * 60_000;

/** Removes the partial avatar uploads a crashed process left in the avatar directory. */
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
