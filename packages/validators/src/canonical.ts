/**
 * The text a voter signs as the EIP-712 `choice` (docs/governance.md, "Voting systems"): a string choice is
 * signed as the string itself; an array or object choice as its RFC 8785 (JCS) canonical JSON. Dependency
 * free, for the few value shapes a ballot can take.
 *
 * RFC 8785 in short, as implemented here:
 * - no whitespace; arrays keep their order; object members are sorted by their names compared as UTF-16
 *   code units (JavaScript's default string order), each name written as a JSON string;
 * - strings as ECMAScript's JSON.stringify writes them (", \ and control characters escaped, \b \t \n \f
 *   \r in their short form, the rest as \u00xx in lower case; everything else, non-ASCII included, as is);
 *   a lone surrogate is not I-JSON and is refused;
 * - numbers as ECMAScript's Number.prototype.toString writes them: the shortest decimal that reads back as
 *   the same double, integers without a fraction ("2", not "2.0"), exponent form from 1e21 up and below
 *   1e-6 ("1e+21", "1e-7"), -0 as "0"; NaN and ±Infinity are refused;
 * - true, false, null as such.
 * JSON.parse keeps one member per name (the last), so a parsed ballot never has duplicate names.
 */

const LONE_SURROGATE = /\p{Surrogate}/u;

function serialize(value: unknown, out: string[]): void {
  if (value === null || value === true || value === false) {
    out.push(String(value));
  } else if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw new TypeError('JCS: a string with a lone surrogate is not I-JSON');
    out.push(JSON.stringify(value));
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`JCS: ${value} is not a JSON number`);
    out.push(JSON.stringify(value)); // ECMAScript number to string; -0 → "0"
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((v, i) => {
      if (i > 0) out.push(',');
      serialize(v, out);
    });
    out.push(']');
  } else if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    out.push('{');
    keys.forEach((k, i) => {
      if (i > 0) out.push(',');
      serialize(k, out);
      out.push(':');
      serialize((value as Record<string, unknown>)[k], out);
    });
    out.push('}');
  } else {
    throw new TypeError(`JCS: a ${typeof value} is not a JSON value`);
  }
}

/** RFC 8785 canonical JSON of a JSON value */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  serialize(value, out);
  return out.join('');
}

/** the signed text of a choice as sent: a string as is, anything else as its canonical JSON */
export function canonicalChoice(choice: unknown): string {
  return typeof choice === 'string' ? choice : canonicalJson(choice);
}
