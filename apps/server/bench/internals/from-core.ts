import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const coreDir = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('@plenum/core'))), '..');

/**
 * A dependency of @plenum/core that this app does not depend on itself (helia, its stores, secp256k1),
 * imported from core's own node_modules: the bench measures exactly the versions core runs with.
 * `subpath` is a file inside the package (for entry points the package does not export).
 */
export async function importFromCore(name: string, subpath?: string) {
  const dir = path.join(coreDir, 'node_modules', name);
  if (subpath) return import(pathToFileURL(path.join(dir, subpath)).href);
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const entry = pkg.exports?.['.']?.import ?? pkg.main ?? 'index.js';
  return import(pathToFileURL(path.join(dir, entry)).href);
}

/** the installed version of a dependency of @plenum/core */
export const coreDependencyVersion = (name: string): string =>
  JSON.parse(readFileSync(path.join(coreDir, 'node_modules', name, 'package.json'), 'utf8')).version;
