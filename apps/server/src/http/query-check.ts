import { AppError, type FieldIssue } from '@plenum/core';

/**
 * A percent-escaped control character no query parameter may hold: NUL and the C0 controls and DEL,
 * except tab, line feed and carriage return (whitespace a tRPC `input` JSON may carry). `%2500` is the
 * text "%00", not a match: a literal % is itself escaped.
 */
const CONTROL = /%(?:0[0-8bcefBCEF]|1[0-9a-fA-F]|7[fF])/;

/**
 * Refuses a request whose query string carries such a character in any parameter, whether the route
 * reads that parameter or not: 400 `VALIDATION_FAILED` with one field issue per parameter, as a NUL in
 * any other input (docs/api.md, "Validation").
 * Runs for every request (after the CSRF guard, before the credential), so no parameter reaches a route
 * or the database with one.
 */
export function assertCleanQuery(url: string | undefined): void {
  const q = url?.indexOf('?') ?? -1;
  if (q === -1 || !CONTROL.test(url!.slice(q + 1))) return;
  const issues: FieldIssue[] = [];
  for (const pair of url!.slice(q + 1).split('&')) {
    if (!CONTROL.test(pair)) continue;
    const key = pair.split('=', 1)[0]!;
    const nul = /%00/.test(pair);
    issues.push({
      path: safeName(key),
      message: nul ? 'must not contain the NUL character (U+0000)' : 'must not contain a control character',
      code: nul ? 'nul_character' : 'control_character',
    });
  }
  throw new AppError('BAD_REQUEST', 'The query string holds a control character', {
    reason: 'VALIDATION_FAILED',
    issues,
  });
}

/** the parameter's name for the issue, decoded, without the characters it is refused for */
function safeName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // malformed escapes: the name as sent
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  return name.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100);
}
