import { storageOf } from '@plenum/api';
import { listFolder } from '@plenum/core';
import type { RouteContext } from '../../http/routes';

/** GET /ipfs/ls/{cid}[?path=a/b]: a folder's entries as JSON (docs/storage.md, "Folders and several files") */
export async function listFolderRoute(rc: RouteContext) {
  const abort = new AbortController();
  rc.reply.raw.on('close', () => abort.abort(new Error('client went away')));
  return listFolder(storageOf(rc), {
    cid: rc.params.cid ?? '',
    path: rc.query.get('path') ?? undefined,
    signal: abort.signal,
  });
}
