/**
 * Files and folders a person drops or chooses, each with its path relative to what was chosen
 * ("photos/2026/a.png"), and whether the server takes them as one folder (docs/storage.md, "In the web app").
 */
export interface PickedFile {
  file: File;
  /** the relative path inside a chosen folder, else the file name */
  path: string;
}

/** from an <input type=file> (with `webkitdirectory` each file knows its path in the folder) */
export const pickedFromInput = (files: Iterable<File>): PickedFile[] =>
  [...files].map((file) => ({ file, path: file.webkitRelativePath || file.name }));

const readEntries = (reader: FileSystemDirectoryReader) =>
  new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

async function walk(entry: FileSystemEntry, out: PickedFile[]) {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ file, path: entry.fullPath.replace(/^\/+/, '') || file.name });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until it answers an empty one
  for (let batch = await readEntries(reader); batch.length; batch = await readEntries(reader))
    for (const child of batch) await walk(child, out);
}

/** from a drop: folders are walked (every file, with its path); plain files keep their names */
export async function pickedFromDrop(data: DataTransfer): Promise<{ picked: PickedFile[]; folder: boolean }> {
  // the entries must be taken during the drop event, before anything is awaited
  const entries = [...data.items].filter((i) => i.kind === 'file').map((i) => i.webkitGetAsEntry?.() ?? null);
  if (!entries.some((e) => e?.isDirectory)) return { picked: pickedFromInput(data.files), folder: false };
  const picked: PickedFile[] = [];
  for (const entry of entries) if (entry) await walk(entry, picked);
  return { picked, folder: true };
}

/**
 * Seam for uploads of several files as one UnixFS folder (issue 30, "Folders, several files"): several
 * `file` parts named by their paths with `wrapWithDirectory=true`, answered with the folder's CID. Only
 * a server that says so in `system.info` (`uploads.directoryUploads: true`) gets them; any other gets
 * the files one by one, each its own upload and CID.
 */
export const directoryUploadsSupported = (uploads: object | undefined): boolean =>
  (uploads as { directoryUploads?: unknown } | undefined)?.directoryUploads === true;

/** the folder's name: the first segment the paths share ("photos" of "photos/a.png") */
export function folderNameOf(picked: PickedFile[]): string | null {
  const first = picked[0]?.path.split('/')[0];
  return first && picked.every((p) => p.path.startsWith(`${first}/`)) ? first : null;
}
