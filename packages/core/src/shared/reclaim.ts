import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

/**
 * FENCED INTERNAL (docs/internals.md, "V8's gc extension"; the gain is recorded there).
 *
 * Relies on V8's `--expose-gc` extension, switched on at run time with `v8.setFlagsFromString` (which
 * Node documents as unsupported after start-up) and taken from a fresh `vm` context, and on its
 * `gc({ type: 'minor' })` option (a scavenge only). Canary: internals.test.ts ("reclaim") checks that
 * the reclaimer is armed in the test process and that a call really runs a minor collection.
 *
 * V8 frees dead Buffers when its JavaScript heap fills, or after their memory (kept outside the heap)
 * grew by about 64 MB since the last collection. A streamed upload allocates a socket read for every
 * 64 KB, each dead within milliseconds, but few JavaScript objects: the dead reads pile up to that limit
 * before anything frees them, and the process grows by ~80 MB for a file it never holds. A young-
 * generation collection (a scavenge: ~0.5 ms, it visits only the few live young objects) frees them;
 * streaming code asks for one every few megabytes (`npm run bench`, upload suite: the first 100 MB
 * upload after start grew the server by 79 MB before, 13 MB with this and pooled leaves).
 *
 * `gc` comes from V8's own extension, enabled for one fresh context only (nothing is added to this
 * realm's globals). Where it is unavailable, the reclaimer does nothing.
 */
function loadGc(): Gc | null {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return existing as Gc;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as Gc) : null;
  } catch {
    return null;
  }
}

let gc: Gc | null | undefined;

/** whether reclaimers here really collect (false: V8's extension is not reachable, they do nothing) */
export function reclaimArmed(): boolean {
  gc ??= loadGc();
  return gc !== null;
}

/** Counts streamed bytes and asks for a young-generation collection every `everyBytes`. */
export function createReclaimer(everyBytes = 4 * 1024 * 1024) {
  reclaimArmed();
  let sinceLast = 0;
  return (bytes: number) => {
    sinceLast += bytes;
    if (sinceLast < everyBytes || !gc) return;
    sinceLast = 0;
    gc({ type: 'minor' });
  };
}
