import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import {
  ballotChoice,
  canonicalBallot,
  canonicalChoice,
  canonicalJson,
  parseBallot,
  requireBallot,
  systemOptions,
  type VotingSystem,
} from './index';

const OPTIONS = ['Alice', 'Bob', 'Carol'];

function refused(system: VotingSystem, choice: unknown, options = OPTIONS) {
  const parsed = parseBallot(system, options, choice);
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(choice)}`);
  expect(parsed.issue.path).toBe('choice');
  return { code: parsed.issue.code, message: parsed.issue.message };
}

function accepted(system: VotingSystem, choice: unknown, options = OPTIONS) {
  const parsed = parseBallot(system, options, choice);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return parsed.ballot;
}

describe('parseBallot', () => {
  it('single-choice: an option name, trimmed, matched exactly', () => {
    expect(accepted('single-choice', ' Bob ')).toEqual({ system: 'single-choice', option: 'Bob' });
    expect(refused('single-choice', 'bob')).toEqual({
      code: 'unknown_option',
      message: '"bob" is not an option; options are: Alice, Bob, Carol',
    });
    expect(refused('single-choice', ['Bob']).code).toBe('invalid_type');
    expect(refused('single-choice', 2).message).toBe(
      'choice must be an option name (a string), got a number',
    );
  });

  it('basic: For, Against or Abstain whatever options are passed', () => {
    expect(systemOptions('basic', ['X'])).toEqual(['For', 'Against', 'Abstain']);
    expect(systemOptions('approval', ['X', 'Y'])).toEqual(['X', 'Y']);
    expect(accepted('basic', 'Against', [])).toEqual({ system: 'basic', option: 'Against' });
    expect(refused('basic', 'Alice').code).toBe('unknown_option');
  });

  it('approval: distinct names, possibly none, in the proposal order', () => {
    expect(accepted('approval', ['Carol', ' Alice'])).toEqual({
      system: 'approval',
      approved: ['Alice', 'Carol'],
    });
    expect(accepted('approval', [])).toEqual({ system: 'approval', approved: [] });
    expect(refused('approval', ['Alice', 'Alice '])).toEqual({
      code: 'duplicate_option',
      message: '"Alice" is approved twice',
    });
    expect(refused('approval', ['Dave']).code).toBe('unknown_option');
    expect(refused('approval', 'Alice').code).toBe('invalid_type');
    expect(refused('approval', [1]).message).toBe('an option name must be a string, got a number');
    expect(refused('approval', { Alice: 1 }).message).toBe(
      'choice must be an array of option names, got an object',
    );
  });

  it.each(['weighted', 'quadratic'] as const)('%s: option → points, finite, ≥ 0, one > 0', (system) => {
    expect(accepted(system, { Carol: 0.5, ' Alice': 2, Bob: 0 })).toEqual({
      system,
      points: { Alice: 2, Bob: 0, Carol: 0.5 },
    });
    expect(accepted(system, { Alice: -0, Bob: 1 })).toEqual({ system, points: { Alice: 0, Bob: 1 } });
    expect(
      Object.is(
        (accepted(system, { Alice: -0, Bob: 1 }) as { points: Record<string, number> }).points.Alice,
        0,
      ),
    ).toBe(true);
    expect(refused(system, { Alice: -1 })).toEqual({
      code: 'invalid_points',
      message: 'points for "Alice" must be a finite number ≥ 0, got -1',
    });
    expect(refused(system, { Alice: Number.NaN }).code).toBe('invalid_points');
    expect(refused(system, { Alice: Number.POSITIVE_INFINITY }).code).toBe('invalid_points');
    expect(refused(system, { Alice: '1' })).toEqual({
      code: 'invalid_type',
      message: 'points for "Alice" must be a number, got a string',
    });
    expect(refused(system, { Alice: 0, Bob: 0 })).toEqual({
      code: 'no_points',
      message: 'choice must give points > 0 to at least one option',
    });
    expect(refused(system, {}).code).toBe('no_points');
    expect(refused(system, { Alice: 1, 'Alice ': 2 }).code).toBe('duplicate_option');
    expect(refused(system, { Dave: 1 }).code).toBe('unknown_option');
    expect(refused(system, ['Alice']).code).toBe('invalid_type');
    expect(refused(system, null).message).toBe('choice must be an object of option name → points, got null');
  });

  it('an option named __proto__ is an ordinary key', () => {
    const options = ['__proto__', 'constructor'];
    const b = accepted('weighted', JSON.parse('{"__proto__": 2, "constructor": 1}'), options);
    expect(Object.keys((b as { points: object }).points)).toEqual(['__proto__', 'constructor']);
    expect(canonicalBallot(b)).toBe('{"__proto__":2,"constructor":1}');
    expect(refused('weighted', JSON.parse('{"__proto__": 2}')).code).toBe('unknown_option');
    expect(refused('approval', ['toString']).code).toBe('unknown_option');
  });

  it('ranked-choice: distinct names, most preferred first, some or all', () => {
    expect(accepted('ranked-choice', ['Carol', 'Alice'])).toEqual({
      system: 'ranked-choice',
      ranking: ['Carol', 'Alice'],
    });
    expect(accepted('ranked-choice', ['Bob', 'Carol', 'Alice'])).toEqual({
      system: 'ranked-choice',
      ranking: ['Bob', 'Carol', 'Alice'],
    });
    expect(refused('ranked-choice', [])).toEqual({
      code: 'empty_ranking',
      message: 'choice must rank at least one option',
    });
    expect(refused('ranked-choice', ['Bob', 'Bob']).code).toBe('duplicate_option');
    expect(refused('ranked-choice', ['Bob', 'Zed']).code).toBe('unknown_option');
    expect(refused('ranked-choice', 'Bob').code).toBe('invalid_type');
  });

  it('requireBallot throws a 400 with the issue on choice', () => {
    expect(requireBallot('approval', OPTIONS, ['Bob'])).toEqual({ system: 'approval', approved: ['Bob'] });
    try {
      requireBallot('ranked-choice', OPTIONS, []);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('BAD_REQUEST');
      expect((e as AppError).issues).toEqual([
        { path: 'choice', code: 'empty_ranking', message: 'choice must rank at least one option' },
      ]);
    }
  });
});

describe('canonical text of a choice (RFC 8785)', () => {
  it('a string choice is signed as itself', () => {
    expect(canonicalChoice('For')).toBe('For');
    expect(canonicalChoice(' For ')).toBe(' For ');
  });

  it('arrays keep their order; objects sort their names by UTF-16 code units; no whitespace', () => {
    expect(canonicalChoice(['Carol', 'Alice'])).toBe('["Carol","Alice"]');
    expect(canonicalChoice([])).toBe('[]');
    expect(canonicalChoice({ b: 1, a: 2, B: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"B":3,"a":2,"b":1}');
    // U+1F600 (surrogates D83D DE00) sorts before U+FB33 by code units, after it by code points
    expect(canonicalJson({ '\uFB33': 1, '😀': 2, é: 3 })).toBe('{"é":3,"😀":2,"דּ":1}');
    expect(canonicalJson({})).toBe('{}');
  });

  it('numbers as ECMAScript writes them (RFC 8785, section 3.2.2.3)', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [-0, '0'],
      [1, '1'],
      [2.0, '2'],
      [4.5, '4.5'],
      [0.1, '0.1'],
      [1 / 3, '0.3333333333333333'],
      [0.002, '0.002'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [1e21, '1e+21'],
      [1e20, '100000000000000000000'],
      [1e30, '1e+30'],
      [1e-27, '1e-27'],
      [9007199254740992, '9007199254740992'],
      [333333333.3333333, '333333333.3333333'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
    ];
    for (const [n, text] of cases) expect(canonicalJson({ A: n }), text).toBe(`{"A":${text}}`);
  });

  it('strings escaped as JSON.stringify does; lone surrogates, NaN, Infinity and undefined refused', () => {
    expect(canonicalJson(['a"b\\c\n\u0001\u007f€'])).toBe('["a\\"b\\\\c\\n\\u0001\u007f€"]');
    expect(() => canonicalJson(['\uD800'])).toThrow(TypeError);
    expect(() => canonicalJson({ A: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ A: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => canonicalJson({ A: undefined })).toThrow(TypeError);
    expect(canonicalJson([true, false, null])).toBe('[true,false,null]');
  });

  it('a normalized ballot has one text whatever the spelling sent', () => {
    const a = accepted('weighted', { Carol: 1.5, Alice: 2 });
    const b = accepted('weighted', { ' Alice ': 2.0, Carol: 1.5 });
    expect(canonicalBallot(a)).toBe('{"Alice":2,"Carol":1.5}');
    expect(canonicalBallot(b)).toBe(canonicalBallot(a));
    expect(ballotChoice(a)).toEqual({ Alice: 2, Carol: 1.5 });
    expect(canonicalBallot(accepted('approval', ['Carol', 'Alice']))).toBe('["Alice","Carol"]');
    expect(canonicalBallot(accepted('ranked-choice', ['Carol', 'Alice']))).toBe('["Carol","Alice"]');
    expect(canonicalBallot(accepted('single-choice', ' Bob'))).toBe('Bob');
  });
});
