import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../lambdas/core/canonical-json.js';

/** The same object with its keys inserted in reverse order, recursively. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  );
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null, 'x'], c: 2.5 } })).toBe(
      '{"a":{"c":2.5,"d":[true,null,"x"]},"b":1}',
    );
  });

  it('is JSON that parses back to the same value, whatever order keys were inserted in', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);

        expect(canonicalJson(reversedKeys(value))).toBe(text);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('leaves out undefined properties and refuses values JSON cannot hold', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });

  it('orders integer-like keys and an own __proto__ key by code unit like any other key', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"x":1},"10":2,"9":3}');

    expect(canonicalJson(parsed)).toBe('{"10":2,"9":3,"__proto__":{"x":1},"b":1}');
    expect(canonicalJson({ z: { b: 2, a: 1 }, a: [{ d: 1, c: 2 }] })).toBe(
      '{"a":[{"c":2,"d":1}],"z":{"a":1,"b":2}}',
    );
  });

  it('serialises a Date or a class instance as its own properties, as before', () => {
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":{}}');
  });
});
