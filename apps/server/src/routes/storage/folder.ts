import { storageOf } from '@plenum/api';
import { listFolder } from '@plenum/core';
import type { RouteContext } from '../../http/routes';

/**
 * GET /ipfs/ls/{cid}[?path=a/b]: a folder's entries as JSON (docs/storage.md, "Folders and several files");
 * a folder only some may read is a 404 to others, and its listing is kept from shared caches.
 */
export async function listFolderRoute(rc: RouteContext) {
  const abort = new AbortController();
  rc.reply.raw.on('close', () => abort.abort(new Error('client went away')));
  const { public: open, ...listing } = await listFolder(storageOf(rc), {
    cid: rc.params.cid ?? '',
    path: rc.query.get('path') ?? undefined,
    userId: rc.principal?.userId,
    signal: abort.signal,
  });
  if (!open) rc.reply.header('Cache-Control', 'private, no-store');
  return listing;
}
