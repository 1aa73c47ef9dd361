import { describe, expect, it } from 'vitest';
import {
  byScore,
  formatBallot,
  formatHours,
  formatPercent,
  formatScore,
  formatWeight,
  scoreUnits,
  shortAddress,
} from './format';
import { sameAddress } from './types';
import { localToIso, numberOrUndefined } from './validate';

describe('formatWeight', () => {
  it('groups the digits of exact integer strings, however long', () => {
    expect(['0', '999', '1000', '1234567'].map((w) => formatWeight(w))).toEqual([
      '0',
      '999',
      '1,000',
      '1,234,567',
    ]);
    const max = (2n ** 256n - 1n).toString();
    expect(formatWeight(max).replaceAll(',', '')).toBe(max);
    expect(formatWeight(max).startsWith('115,792,089,237,')).toBe(true);
  });

  it('groups with the locale’s separator, exactly', () => {
    expect(formatWeight('1234567', 'de')).toBe('1.234.567');
    const max = (2n ** 256n - 1n).toString();
    expect(formatWeight(max, 'de').replaceAll('.', '')).toBe(max);
  });
});

describe('formatPercent', () => {
  it('rounds to two decimals without trailing zeros', () => {
    expect([0, 50, 66.666, 33.333, 12.5].map((p) => formatPercent(p))).toEqual([
      '0 %',
      '50 %',
      '66.67 %',
      '33.33 %',
      '12.5 %',
    ]);
  });
});

describe('formatPercent in German', () => {
  it('uses the decimal comma', () => {
    expect(formatPercent(66.666, 'de')).toBe('66,67 %');
    expect(formatPercent(100, 'de')).toBe('100 %');
  });
});

describe('shortAddress', () => {
  it('shortens addresses to 0x1234…abcd and keeps short strings', () => {
    expect(shortAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x5290…9EE7');
    expect(shortAddress('0x1234567890')).toBe('0x1234567890');
  });
});

describe('formatHours', () => {
  it('says none for zero, seconds below an hour and hours above', () => {
    expect(formatHours(0)).toBe('none');
    expect(formatHours(2 / 3600)).toBe('2 seconds');
    expect(formatHours(0.5)).toBe('1,800 seconds');
    expect(formatHours(1)).toBe('1 hour');
    expect(formatHours(1.5)).toBe('1.5 hours');
    expect(formatHours(1 / 3 + 24)).toBe('24.33 hours');
    expect(formatHours(8760)).toBe('8,760 hours');
  });

  it('speaks the locale, and says the given word for zero', () => {
    expect(formatHours(0, 'de', 'keine')).toBe('keine');
    expect(formatHours(1, 'de')).toBe('1 Stunde');
    expect(formatHours(1.5, 'de')).toBe('1,5 Stunden');
    expect(formatHours(0.5, 'de')).toBe('1.800 Sekunden');
  });
});

describe('sameAddress', () => {
  it('compares addresses ignoring case, and nothing equals a missing address', () => {
    const a = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(sameAddress(a, a.toLowerCase())).toBe(true);
    expect(sameAddress(a, `${a.slice(0, -1)}8`)).toBe(false);
    expect(sameAddress(null, null)).toBe(false);
    expect(sameAddress(a, undefined)).toBe(false);
  });
});

describe('number and time inputs', () => {
  it('read an empty number field as missing, anything else as the number it spells', () => {
    expect([undefined, '', '   '].map(numberOrUndefined)).toEqual([undefined, undefined, undefined]);
    expect(['12', ' 7.5 ', '1e3'].map(numberOrUndefined)).toEqual([12, 7.5, 1000]);
    expect(numberOrUndefined('abc')).toBeNaN();
  });

  it('turn a datetime-local value (local time) into UTC ISO-8601 with Z', () => {
    expect(localToIso('2030-01-02T03:04')).toBe(new Date(2030, 0, 2, 3, 4).toISOString());
    expect(localToIso('2030-01-02T03:04')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
  });

  it('leave an empty value missing and an unreadable one as typed, for the schema to report', () => {
    expect(localToIso('')).toBeUndefined();
    expect(localToIso(undefined)).toBeUndefined();
    expect(localToIso('next tuesday')).toBe('next tuesday');
  });
});

describe('formatBallot', () => {
  it('writes each system’s ballot in words; hidden stays null', () => {
    expect(formatBallot('For')).toBe('For');
    expect(formatBallot(null)).toBeNull();
    expect(formatBallot(['A', 'C'], 'approval')).toBe('A, C');
    expect(formatBallot([], 'approval')).toBe('none approved');
    expect(formatBallot([], 'approval', undefined, 'keiner Option zugestimmt')).toBe(
      'keiner Option zugestimmt',
    );
    expect(formatBallot(['B', 'A', 'C'], 'ranked-choice')).toBe('1. B, 2. A, 3. C');
    expect(formatBallot({ A: 2, B: 1.5 }, 'weighted')).toBe('A 2 · B 1.5');
    expect(formatBallot({ Bb: 1, Aaa: 2 }, 'quadratic', ['Aaa', 'Bb'])).toBe('Aaa 2 · Bb 1');
  });
});

describe('formatScore in German', () => {
  it('groups with dots and marks decimals with a comma', () => {
    expect(formatScore('1234567.500000000000000000', 4, 'de')).toBe('1.234.567,5');
    expect(formatScore('0.000000000000000001', 4, 'de')).toBe('< 0,0001');
    expect(formatScore('42', 4, 'de')).toBe('42');
  });
});

describe('formatScore', () => {
  it('groups whole scores like weights', () => {
    expect(['0', '7', '1234567'].map((s) => formatScore(s))).toEqual(['0', '7', '1,234,567']);
  });

  it('rounds 18-decimal scores to at most 4 places and drops trailing zeros', () => {
    expect(formatScore('25.000000000000000000')).toBe('25');
    expect(formatScore('4.680000000000000000')).toBe('4.68');
    expect(formatScore('0.333333333333333333')).toBe('0.3333');
    expect(formatScore('0.666666666666666667')).toBe('0.6667');
    expect(formatScore('1.999999999999999999')).toBe('2');
    expect(formatScore('1234.500000000000000000')).toBe('1,234.5');
    expect(formatScore('0.000000000000000000')).toBe('0');
    expect(formatScore('0.000000000000000001')).toBe('< 0.0001');
    expect(formatScore('2.125000000000000000', 2)).toBe('2.13');
  });

  it('reads scores exactly beyond a JS number’s range', () => {
    expect(formatScore('1000000000000000000000.250000000000000000')).toBe('1,000,000,000,000,000,000,000.25');
    expect(scoreUnits('1.5')).toBe(1_500_000_000_000_000_000n);
  });
});

describe('byScore', () => {
  it('ranks options by score, highest first, ties in the given order', () => {
    const ranked = byScore([
      { option: 'A', weight: '1.250000000000000000' },
      { option: 'B', weight: '2.000000000000000000' },
      { option: 'C', weight: '1.250000000000000000' },
      { option: 'D', weight: '0.000000000000000000' },
    ]);
    expect(ranked.map((o) => o.option)).toEqual(['B', 'A', 'C', 'D']);
    expect(byScore([{ weight: '9' }, { weight: '10' }]).map((o) => o.weight)).toEqual(['10', '9']);
  });
});
