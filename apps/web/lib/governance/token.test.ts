import { TOKEN_STANDARD } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import { chainName, formatTokenAmount, formatTokenWeight, STANDARDS, toBaseUnits } from './token';

const E18 = '000000000000000000';

describe('formatTokenAmount', () => {
  it('shows whole tokens with the symbol', () => {
    expect(formatTokenAmount(`100${E18}`, 18, 'GRDN')).toBe('100 GRDN');
    expect(formatTokenAmount('0', 18, 'GRDN')).toBe('0 GRDN');
    expect(formatTokenAmount(`1234567${E18}`, 18)).toBe('1,234,567');
  });

  it('keeps up to four places, truncated, trailing zeros dropped', () => {
    expect(formatTokenAmount('1500000000000000000', 18, 'VOT')).toBe('1.5 VOT');
    expect(formatTokenAmount('1234567890000000000', 18)).toBe('1.2345');
    expect(formatTokenAmount('1999999999999999999', 18)).toBe('1.9999');
    expect(formatTokenAmount('1234567', 6, 'USDC')).toBe('1.2345 USDC');
    expect(formatTokenAmount('123456', 2, 'X', 1)).toBe('1,234.5 X');
  });

  it('shows a dust amount as below the smallest shown place', () => {
    expect(formatTokenAmount('1', 18, 'GRDN')).toBe('< 0.0001 GRDN');
    expect(formatTokenAmount('99999999999999', 18)).toBe('< 0.0001');
  });

  it('handles tokens without decimals and amounts beyond 2^53', () => {
    expect(formatTokenAmount('42', 0, 'PTS')).toBe('42 PTS');
    expect(formatTokenAmount(`${2n ** 64n}`, 0)).toBe('18,446,744,073,709,551,616');
    expect(formatTokenAmount(`${10n ** 30n}`, 18)).toBe('1,000,000,000,000');
  });

  it('shows a string that is not an integer as given', () => {
    expect(formatTokenAmount('1.5', 18, 'X')).toBe('1.5 X');
  });
});

describe('formatTokenWeight', () => {
  it('uses the token when there is one, else the plain weight', () => {
    expect(formatTokenWeight(`100${E18}`, { decimals: 18, symbol: 'GRDN' })).toBe('100 GRDN');
    expect(formatTokenWeight('1000', null)).toBe('1,000');
  });

  it("writes numbers the page's way: German groups with dots and marks decimals with a comma", () => {
    expect(formatTokenWeight(`1234567${'5'.padEnd(18, '0')}`, { decimals: 18, symbol: 'GRDN' }, 'de')).toBe(
      '1.234.567,5 GRDN',
    );
    expect(formatTokenWeight('1234567', null, 'de')).toBe('1.234.567');
    expect(formatTokenAmount('1', 18, 'GRDN', 4, 'de')).toBe('< 0,0001 GRDN');
    expect(formatTokenAmount(`1234${'5'.padEnd(18, '0')}`, 18, 'GRDN', 4, 'en')).toBe('1,234.5 GRDN');
  });
});

describe('toBaseUnits', () => {
  it('converts whole tokens with the decimals', () => {
    expect(toBaseUnits('100', 18)).toEqual({ ok: true, value: `100${E18}` });
    expect(toBaseUnits('2.5', 6)).toEqual({ ok: true, value: '2500000' });
    expect(toBaseUnits(' 1,000 ', 0)).toEqual({ ok: true, value: '1000' });
    expect(toBaseUnits('.5', 1)).toEqual({ ok: true, value: '5' });
    expect(toBaseUnits('0', 18)).toEqual({ ok: true, value: '0' });
  });

  it('leaves an empty entry out', () => {
    expect(toBaseUnits('', 18)).toEqual({ ok: true, value: undefined });
    expect(toBaseUnits(undefined, 18)).toEqual({ ok: true, value: undefined });
  });

  it('refuses what is not an amount, or finer than the token', () => {
    for (const bad of ['-1', 'abc', '1e18', '1.2.3', '0x10'])
      expect(toBaseUnits(bad, 18).ok, bad).toBe(false);
    const fine = toBaseUnits('1.25', 1);
    expect(fine.ok).toBe(false);
    if (!fine.ok) expect(fine.message).toContain('1 decimal');
    const none = toBaseUnits('1.5', 0);
    if (!none.ok) expect(none.message).toContain('0 decimals');
  });
});

describe('names', () => {
  it('names chains', () => {
    expect(chainName(1)).toBe('Ethereum');
    expect(chainName(31337)).toBe('Local (anvil)');
    expect(chainName(999999)).toBeUndefined();
  });
});

describe('STANDARDS', () => {
  it("are the API's token standards, in its order", () => {
    expect(STANDARDS).toEqual(TOKEN_STANDARD.options);
  });
});
