import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VOTING_SYSTEM_TRAITS } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import { systemOf } from './registry';
import { VOTING_SYSTEMS } from './types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

describe('the voting-system registry (docs/governance.md, "Adding a voting system")', () => {
  it("each system's example is a ballot of its kind that its own parse accepts", () => {
    const options = ['Option A', 'Option B', 'Option C'];
    for (const system of VOTING_SYSTEMS) {
      const { example, parse } = systemOf(system);
      const kind = VOTING_SYSTEM_TRAITS[system].ballot;
      const shape = typeof example === 'string' ? 'single' : Array.isArray(example) ? 'list' : 'points';
      expect(shape, system).toBe(kind === 'approval' || kind === 'ranked' ? 'list' : kind);
      const fixed = VOTING_SYSTEM_TRAITS[system].fixedOptions;
      expect(parse(fixed ?? options, example).ok, system).toBe(true);
    }
  });

  it('no code outside the systems compares a system name: it reads a registry property', () => {
    const names = VOTING_SYSTEMS.join('|');
    const comparison = new RegExp(
      `(?:[!=]==?\\s*['"](?:${names})['"])|(?:['"](?:${names})['"]\\s*[!=]==?)|(?:case\\s+['"](?:${names})['"]\\s*:)`,
    );
    // the definitions name their own ballots; the two lists of names are the names
    const owners = [
      'packages/core/src/governance/systems/',
      'packages/validators/src/voting-systems.ts',
      'packages/db/src/schema/governance.ts',
    ];
    const dirs = [
      'packages/core/src',
      'packages/api/src',
      'packages/validators/src',
      'packages/db/src',
      'apps/server/src',
      'apps/web/lib',
      'apps/web/components',
      'apps/web/app',
    ];
    const found: string[] = [];
    for (const dir of dirs) {
      for (const entry of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
        const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
        if (owners.some((o) => file.startsWith(o))) continue;
        // the web's ballot kinds share a word with a system ('approval'): a test of a kind is no test of a name
        let switchOn = '';
        readFileSync(path.join(ROOT, file), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            switchOn = /switch\s*\((.*)\)/.exec(line)?.[1] ?? switchOn;
            const onKind =
              /\bkind\s*[!=]==/.test(line) || (/^\s*case\b/.test(line) && /kind\b/.test(switchOn));
            if (comparison.test(line) && !onKind) found.push(`${file}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(found).toEqual([]);
  });
});
