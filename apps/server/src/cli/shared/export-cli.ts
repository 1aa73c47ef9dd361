import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * What the export commands share (docs/operations.md, "Moving off the embedded defaults"): the options
 * `--out <file> | --out -` and `--force`, messages prefixed with the command's name on standard error,
 * exit code 2 for a refusal, and output paths relative to where `npm run` was typed.
 */
export function exportCli(name: string, usage: string) {
  const note = (message: string) => console.error(`${name}: ${message}`);
  const refuse = (message: string): never => {
    note(message);
    process.exit(2);
  };
  let options: { out?: string | undefined; force?: boolean | undefined; help?: boolean | undefined };
  try {
    options = parseArgs({
      args: process.argv.slice(2).filter((a) => a !== '--'),
      options: {
        out: { type: 'string', short: 'o' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    refuse(`${(err as Error).message}\n${usage}`);
  }
  if (options!.help) {
    console.error(usage);
    process.exit(0);
  }
  // npm runs the script at the repository's root; INIT_CWD is where it was typed
  const here = process.env.INIT_CWD ?? process.cwd();
  return {
    options: options!,
    note,
    refuse,
    /** `--out` (or `defaultName`) resolved from where the command was typed; '-' for standard output */
    out: (defaultName: string) =>
      options!.out === '-' ? '-' : path.resolve(here, options!.out ?? defaultName),
    /** a path as the user would type it from where they are: relative below it, absolute elsewhere */
    shown: (file: string) => {
      const rel = path.relative(here, file);
      return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
    },
    /** the one line of a failure, exit code 1 */
    fail: (err: unknown): never => {
      note((err as Error).message);
      process.exit(1);
    },
  };
}
