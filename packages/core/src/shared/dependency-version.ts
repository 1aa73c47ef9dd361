import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The installed version of one of core's dependencies, for the messages of the modules that rely on a
 * dependency's private surface (docs/internals.md) and of their canary tests: when an upgrade breaks
 * one, the error says which package at which version. 'unknown' when it cannot be found.
 */
export function installedVersion(name: string): string {
  try {
    let dir = path.dirname(createRequire(import.meta.url).resolve(name));
    while (dir !== path.dirname(dir)) {
      try {
        const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (pkg.name === name) return pkg.version ?? 'unknown';
      } catch {
        // no package.json here: keep going up
      }
      dir = path.dirname(dir);
    }
  } catch {
    // not resolvable from core
  }
  return 'unknown';
}

/** "<name>@<version>: <what> (docs/internals.md)", the one format of those messages */
export const internalBroken = (name: string, what: string) =>
  `${name}@${installedVersion(name)}: ${what} (docs/internals.md)`;
