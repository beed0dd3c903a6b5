/**
 * Whether two values are provably the same JSON value: finite numbers, strings, booleans, null,
 * arrays and plain objects (keys whose value is undefined left out, as JSON leaves them out),
 * equal all the way down. True implies `canonicalJson(a) === canonicalJson(b)`, without building
 * either text. False means only "not shown equal here": anything else (a Date, undefined in an
 * array, NaN) is false, so a caller that needs the exact verdict compares the canonical texts then.
 *
 * @example
 * sameJsonValue({ a: 1, b: [true] }, { b: [true], a: 1 }); // true
 * sameJsonValue({ a: 1 }, { a: '1' }); // false
 */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === null || typeof a === 'string' || typeof a === 'boolean') return a === b;
  if (typeof a === 'number') return a === b && Number.isFinite(a);
  if (typeof a !== 'object' || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameJsonValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let defined = 0;
  for (const key of Object.keys(left)) {
    if (left[key] === undefined) continue;
    defined += 1;
    if (!Object.hasOwn(right, key) || !sameJsonValue(left[key], right[key])) return false;
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined) defined -= 1;
  return defined === 0;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
