/**
 * CSV text for downloads (the votes export, the audit log export): RFC 4180 cells and records, safe to open
 * in a spreadsheet (docs/governance.md, "Exporting the votes").
 */

/**
 * A cell text a spreadsheet could take for a formula (OWASP, "CSV Injection"): one starting with =, +, -,
 * @, their fullwidth forms ＝ ＋ － ＠ (some spreadsheets fold them to ASCII), or any whitespace or control
 * character (TAB, CR, LF, a space: spreadsheets trim them and then read what follows).
 */
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\s\p{Cc}]/u;

/**
 * One CSV cell (RFC 4180): null as empty; a text that could run as a formula (FORMULA_START) gets a
 * leading apostrophe, so a spreadsheet shows it as text (docs/governance.md, "Exporting the votes"); a
 * cell with a comma, a double quote, CR or LF is quoted, its double quotes doubled.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const CRLF = '\r\n';

/** one CSV record of cells, ending with CRLF */
export const csvRow = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(',') + CRLF;
