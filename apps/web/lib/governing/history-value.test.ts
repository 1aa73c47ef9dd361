import { describe, expect, it } from 'vitest';
import { historyValue } from './history-value';

describe('historyValue', () => {
  it('says nothing for null, undefined and the empty text', () => {
    for (const v of [null, undefined, '']) expect(historyValue(v)).toEqual({ kind: 'none' });
  });
  it('keeps booleans for yes / no', () => {
    expect(historyValue(false)).toEqual({ kind: 'boolean', value: false });
  });
  it('writes numbers, texts and objects as text, a long one cut', () => {
    expect(historyValue(66.5)).toEqual({ kind: 'text', text: '66.5' });
    expect(historyValue({ chainId: 1 })).toEqual({ kind: 'text', text: '{"chainId":1}' });
    const long = historyValue('x'.repeat(500));
    expect(long.kind === 'text' && long.text.length).toBe(160);
  });
});
