import { rm } from 'node:fs/promises';
import * as raw from 'multiformats/codecs/raw';
import { AppError, badRequest } from '../shared/errors';
import { parseCid } from './cid';
import { importAndPin } from './import-pin';
import type { SessionEntity } from './internal-events';
import { failureOf, findProviderError } from './provider';
import { type OpenedFile, openFile } from './read';
import type { StorageServices } from './runtime';
import { readSpool, type SpooledFile, type UploadParams } from './upload';
import { requireReadable } from './visibility';

/** files in one upload at most (docs/storage.md, "Folders and several files") */
export const UPLOAD_MAX_FILES = 1000;
/** the pin record's type of a folder upload */
export const DIRECTORY_MIME = 'inode/directory';

const MAX_PATH = 1024;
const MAX_SEGMENT = 255;

const invalidPath = (name: string, why: string) =>
  badRequest(`Invalid file path "${name}": ${why}`, [{ path: 'file', message: why }], 'INVALID_PATH');

/**
 * A file's name in a folder upload (the part's filename, e.g. `photos/2026/a.jpg` from a dropped folder)
 * checked and returned as it will be stored: relative, `/` between folders, no empty, `.` or `..`
 * segment, no backslash or control character.
 */
export function checkUploadPath(name: string | null | undefined): string {
  if (!name) throw invalidPath('', 'every file needs a name');
  if (name.length > MAX_PATH) throw invalidPath(name.slice(0, 40), `longer than ${MAX_PATH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f\\]/.test(name)) throw invalidPath(name, 'control character or backslash');
  if (name.startsWith('/')) throw invalidPath(name, 'absolute paths are not allowed');
  for (const segment of name.split('/')) {
    if (segment === '') throw invalidPath(name, 'empty path segment');
    if (segment === '.' || segment === '..') throw invalidPath(name, `"${segment}" is not allowed`);
    if (Buffer.byteLength(segment) > MAX_SEGMENT)
      throw invalidPath(name, `a name is longer than ${MAX_SEGMENT} bytes`);
  }
  return name;
}

/** the same path twice, or a path that is a file and a folder at once (`a` and `a/b`) → 400 */
export function checkDistinctPaths(paths: string[]) {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const p of paths) {
    if (files.has(p) || folders.has(p))
      throw badRequest(`The path "${p}" is given twice`, [{ path: 'file', message: p }], 'DUPLICATE_PATH');
    files.add(p);
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
  }
  for (const f of folders)
    if (files.has(f))
      throw badRequest(
        `"${f}" is both a file and a folder`,
        [{ path: 'file', message: f }],
        'DUPLICATE_PATH',
      );
}

export interface FolderFile {
  path: string;
  cid: string;
  size: number;
  mimetype: string;
}

export interface FolderUploadResult {
  cid: string;
  size: number;
  files: FolderFile[];
}

/** the record's name of a folder: the one folder every path is in (`trip` of `trip/a.txt`), else none */
function folderNameOf(paths: string[]): string | null {
  const first = paths[0]?.split('/')[0];
  return first && paths.every((p) => p.startsWith(`${first}/`)) ? first : null;
}

/**
 * Imports accepted spool files as one UnixFS directory (docs/storage.md, "Folders and several files"),
 * pins it and records the owner's pin on the directory, in importAndPin's order (GC lease, visibility,
 * the files' total reserved against the quota, privacy hold, import, record). The spool files are
 * removed in every case.
 */
export async function importFolder(
  svc: StorageServices,
  params: {
    userId: string;
    owner: string;
    entries: { path: string; spooled: SpooledFile }[];
    visibility?: UploadParams['visibility'] | undefined;
  },
): Promise<FolderUploadResult> {
  const { entries } = params;
  try {
    for (const e of entries) checkUploadPath(e.path);
    checkDistinctPaths(entries.map((e) => e.path));
    const size = entries.reduce((n, e) => n + e.spooled.size, 0);
    return await importAndPin(
      svc,
      { userId: params.userId, owner: params.owner, bytes: size, visibility: params.visibility },
      async (hold) => {
        const dir = await svc.storage.node.addDirectory(
          entries.map((e) => ({ path: e.path, content: () => readSpool(e.spooled.path) })),
          { hold },
        );
        const files = entries.map((e) => {
          const cid = dir.files.get(e.path);
          if (!cid) throw new Error(`the importer returned no CID for ${e.path}`);
          return {
            path: e.path,
            cid: cid.toV1().toString(),
            size: e.spooled.size,
            mimetype: e.spooled.type.mime,
          };
        });
        return {
          roots: [
            {
              cid: dir.cid,
              filename: folderNameOf(entries.map((e) => e.path)),
              mimetype: DIRECTORY_MIME,
              size,
              storedBytes: size,
            },
          ],
          result: { cid: dir.cid.toV1().toString(), size, files },
        };
      },
    );
  } finally {
    await Promise.all(entries.map((e) => rm(e.spooled.path, { force: true })));
  }
}

/** a path in a read: the same rules as an upload's names */
function checkReadPath(path: string): string {
  try {
    return checkUploadPath(path);
  } catch (err) {
    if (err instanceof AppError)
      throw badRequest(err.message, [{ path: 'path', message: err.message }], 'INVALID_PATH');
    throw err;
  }
}

/**
 * The folder and path of a read inside a folder (`GET /ipfs/file/{cid}/{path}`, `GET /ipfs/ls/{cid}`),
 * checked on what they say alone, before who may read the folder is asked: a bad path (400
 * INVALID_PATH), or a raw block, which holds no folder (400 NOT_A_DIRECTORY). So these answers are the
 * same for every CID, whether it is absent, public or hidden (docs/storage.md, "Reading inside a folder").
 */
export function checkFolderRead(cid: string, path: string | undefined) {
  const root = parseCid(cid);
  const checked = path !== undefined ? checkReadPath(path) : '';
  if (root.cid.code === raw.code)
    throw badRequest(`${root.text} is a raw block, not a folder`, undefined, 'NOT_A_DIRECTORY');
  return { root: root.text, path: checked };
}

/** what the node says a path is; a missing name → 404 PATH_NOT_FOUND, through a file → 400 NOT_A_DIRECTORY */
async function resolveIn(svc: StorageServices, root: string, path: string, signal?: AbortSignal) {
  const { cid } = parseCid(root);
  try {
    return await svc.storage.node.resolve(cid, path, { signal });
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'NotFoundError' || name === 'DoesNotExistError')
      throw new AppError('NOT_FOUND', `No "${path}" in ${root}`, { reason: 'PATH_NOT_FOUND' });
    if (name === 'NotADirectoryError' || name === 'NotUnixFSError' || name === 'BadPathError')
      throw badRequest(`${root} has no folder on the way to "${path}"`, undefined, 'NOT_A_DIRECTORY');
    const pe = findProviderError(err);
    if (pe && /no link named|not found|does not exist/i.test(pe.message))
      throw new AppError('NOT_FOUND', `No "${path}" in ${root}`, { reason: 'PATH_NOT_FOUND' });
    if (!pe) throw err;
    throw failureOf(pe.attempts, root);
  }
}

/**
 * GET /ipfs/file/{cid}/{path}: who may read is decided on the folder's CID first (a folder the requester
 * may not read is a 404 like an absent one, whatever the path: docs/storage.md, "Folders and several
 * files"); then the node resolves the path inside the directory and the file it names is read like GET
 * /ipfs/file/{cid} (gateways first, then the node), as public as the folder. A folder → 400 NOT_A_FILE.
 * `checked`: the caller already checked the folder.
 */
export async function openFileAtPath(
  svc: StorageServices,
  params: {
    cid: string;
    path: string;
    requester: SessionEntity | null;
    signal?: AbortSignal;
    checked?: { public: boolean };
  },
): Promise<OpenedFile> {
  const { root, path } = checkFolderRead(params.cid, params.path);
  const open =
    params.checked?.public ?? (await requireReadable(svc, { cid: root, userId: params.requester?.userId }));
  const target = await resolveIn(svc, root, path, params.signal);
  if (target.type === 'directory')
    throw badRequest(
      `"${path}" in ${root} is a folder: list it with GET /ipfs/ls/${root}`,
      undefined,
      'NOT_A_FILE',
    );
  return openFile(svc, {
    cid: target.cid.toString(),
    requester: params.requester,
    signal: params.signal,
    checked: { public: open },
  });
}

export interface FolderListing {
  cid: string;
  path: string;
  entries: { name: string; cid: string; size: number; type: 'file' | 'directory' }[];
}

/**
 * GET /ipfs/ls/{cid}[?path=]: a folder's entries, from the node; a folder the requester (null:
 * anonymous) may not read is a 404 like an absent one, checked before the path is looked at.
 */
export async function listFolder(
  svc: StorageServices,
  params: { cid: string; path?: string | undefined; userId: string | null | undefined; signal?: AbortSignal },
): Promise<FolderListing & { public: boolean }> {
  const { root, path } = checkFolderRead(params.cid, params.path || undefined);
  const open = await requireReadable(svc, { cid: root, userId: params.userId });
  const target = await resolveIn(svc, root, path, params.signal);
  if (target.type !== 'directory')
    throw badRequest(`${root}/${path} is not a folder`, undefined, 'NOT_A_DIRECTORY');
  try {
    const entries = await svc.storage.node.ls(target.cid, { signal: params.signal });
    return {
      cid: root,
      path,
      public: open,
      entries: entries.map((e) => ({
        name: e.name,
        cid: e.cid.toV1().toString(),
        size: e.size,
        type: e.type,
      })),
    };
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'NotUnixFSError' || name === 'NotADirectoryError')
      throw badRequest(`${root} is not a folder`, undefined, 'NOT_A_DIRECTORY');
    const pe = findProviderError(err);
    if (!pe) throw err;
    throw failureOf(pe.attempts, root);
  }
}
