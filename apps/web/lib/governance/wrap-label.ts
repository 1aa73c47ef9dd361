/**
 * A label broken into lines no wider than `width` (as `measure` says, in px): at spaces first, and a
 * word wider than a line by itself is broken between characters, so nothing is cut. SVG text (the
 * results chart's option names) does not wrap by itself.
 */
export function wrapLabel(text: string, width: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.trim().split(/\s+/)) {
    const joined = line ? `${line} ${word}` : word;
    if (measure(joined) <= width) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    // the word alone: whole if it fits, else in pieces that do (at least one character each)
    let rest = word;
    while (measure(rest) > width && rest.length > 1) {
      let n = rest.length - 1;
      while (n > 1 && measure(rest.slice(0, n)) > width) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}
