import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../lambdas/core/canonical-json.js';
import { sameJsonValue } from '../../lambdas/core/same-json.js';

// sameJsonValue stands in for comparing canonical texts (a restore's read-back check): true must
// imply equal texts, and every difference those texts show must make it false.
describe('sameJsonValue', () => {
  const pairs: [unknown, unknown][] = [
    [
      { a: 1, b: [true, null, 'x'] },
      { b: [true, null, 'x'], a: 1 },
    ],
    [{ a: 1, gone: undefined }, { a: 1 }],
    [
      { '10': 1, '9': 2 },
      { '9': 2, '10': 1 },
    ],
    [0, -0],
    [{ a: 1 }, { a: '1' }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [
      [1, 2],
      [2, 1],
    ],
    [[1], { 0: 1 }],
    [{ a: { b: [1, { c: 'd' }] } }, { a: { b: [1, { c: 'e' }] } }],
    [null, {}],
    ['', 0],
    [1.5, 1.5000001],
  ];

  it.each(pairs)('agrees with the canonical texts on %j and %j', (a, b) => {
    const sameText = canonicalJson(a) === canonicalJson(b);
    expect(sameJsonValue(a, b)).toBe(sameText);
    expect(sameJsonValue(b, a)).toBe(sameText);
  });

  it('shows nothing equal that JSON cannot hold', () => {
    expect(sameJsonValue(Number.NaN, Number.NaN)).toBe(false);
    expect(sameJsonValue(new Date(0), new Date(0))).toBe(false);
    expect(sameJsonValue([undefined], [undefined])).toBe(false);
  });
});
