/**
 * Exact arithmetic shared by the fractional voting systems (docs/governance.md, "Voting systems"): fixed point
 * with 18 decimals on bigint, an integer square root, a largest-remainder split, and the exact value of a
 * ballot's points.
 */

export const FIXED_DECIMALS = 18;
/** 10^18: a fixed-point amount `a` stands for a / 10^18 weight units */
export const FIXED_SCALE = 10n ** 18n;

/** a fixed-point amount as a decimal string with exactly 18 decimals ("12.500000000000000000") */
export function formatFixed(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  const whole = abs / FIXED_SCALE;
  const frac = (abs % FIXED_SCALE).toString().padStart(FIXED_DECIMALS, '0');
  return `${sign}${whole}.${frac}`;
}

/** floor(√n) for n ≥ 0, exactly (Newton's method on bigint) */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of a negative number');
  if (n < 2n) return n;
  // a first guess at or above √n: the double's root raised by far more than its error (2^-52 relative),
  // or 2^ceil(bits / 2) beyond the double's range; Newton's steps then go down to ⌊√n⌋
  const approx = Math.sqrt(Number(n));
  let x = Number.isFinite(approx)
    ? BigInt(Math.ceil(approx * (1 + 2 ** -40))) + 1n
    : 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * Splits `total` into parts proportional to `weights`, exactly: each part is total × wᵢ / Σw rounded down,
 * and the units left over go one each to the largest remainders (ties: the earlier index). The parts add up
 * to `total`; all zeros when Σw is 0. Weights must be ≥ 0.
 */
export function apportion(total: bigint, weights: readonly bigint[]): bigint[] {
  let sum = 0n;
  for (const w of weights) {
    if (w < 0n) throw new RangeError('apportion: negative weight');
    sum += w;
  }
  if (sum === 0n) return weights.map(() => 0n);
  const parts: bigint[] = [];
  const remainders: bigint[] = [];
  let given = 0n;
  for (const w of weights) {
    const p = total * w;
    parts.push(p / sum);
    remainders.push(p % sum);
    given += p / sum;
  }
  let left = total - given; // fewer than the number of non-zero remainders
  if (left > 0n) {
    const order = remainders
      .map((r, i) => ({ r, i }))
      .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
    for (const { i } of order) {
      if (left === 0n) break;
      parts[i]! += 1n;
      left -= 1n;
    }
  }
  return parts;
}

/**
 * The exact value of a finite number ≥ 0 as a fraction num / 10^exp: the value of its ECMAScript string
 * (the shortest decimal that reads back as the same number, which is also how RFC 8785 writes it), so 0.1
 * counts as exactly 1/10, the value the voter wrote and signed.
 */
export function exactDecimal(x: number): { num: bigint; exp: number } {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`not a finite number ≥ 0: ${x}`);
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new RangeError(`unexpected number form: ${String(x)}`);
  const frac = m[2] ?? '';
  const num = BigInt(m[1]! + frac);
  const e = Number(m[3] ?? '0') - frac.length; // x = num × 10^e
  return e >= 0 ? { num: num * 10n ** BigInt(e), exp: 0 } : { num, exp: -e };
}

/** points as integers on one common denominator: their ratios are exactly the points' ratios */
export function commonNumerators(points: readonly number[]): bigint[] {
  const exact = points.map(exactDecimal);
  const exp = Math.max(0, ...exact.map((d) => d.exp));
  return exact.map((d) => d.num * 10n ** BigInt(exp - d.exp));
}
