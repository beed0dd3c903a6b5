/**
 * One byte sequence per JSON value: object keys sorted by code unit, no whitespace, numbers and
 * strings as `JSON.stringify` writes them. Hashes taken over it (snapshot manifests, items) do not
 * depend on the order a map was filled in, and a reader can check that bytes it received are in
 * this form, so no two different byte strings verify as the same content.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  // The native serialiser writes keys in insertion order, numbers and strings exactly as this
  // format does, and is several times faster than any walk in JavaScript (a snapshot serialises
  // tens of thousands of items, most of them twice). So: data already in canonical order (what
  // JSON.parse gives back for canonical text) goes to it as is, other data as a copy with its
  // keys inserted sorted, and only what no copy can order (integer-like keys, which objects
  // always enumerate first) or what JSON cannot hold takes the walk below, which also refuses.
  if (isInCanonicalOrder(value)) return JSON.stringify(value);
  const sorted = sortedCopy(value);
  if (sorted !== UNORDERABLE) return JSON.stringify(sorted);
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

const UNORDERABLE = Symbol('unorderable');

/** Plain data JSON holds whose objects' keys are already in code-unit order. Allocates nothing. */
function isInCanonicalOrder(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (!isInCanonicalOrder(value[i])) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && !(previous < key)) return false;
    if (!isInCanonicalOrder((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
}

/** A copy whose objects have their keys inserted sorted (undefined properties left out), or UNORDERABLE. */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : UNORDERABLE;
  if (typeof value !== 'object') return UNORDERABLE;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item = sortedCopy(value[i]);
      if (item === UNORDERABLE) return UNORDERABLE;
      copy[i] = item;
    }
    return copy;
  }
  if (!isPlainObject(value)) return UNORDERABLE;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    // An integer-like key is enumerated before every other key whatever the insertion order, and
    // assigning `__proto__` would set the copy's prototype instead of a property.
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === '__proto__') return UNORDERABLE;
    const item = sortedCopy(record[key]);
    if (item === UNORDERABLE) return UNORDERABLE;
    copy[key] = item;
  }
  return copy;
}

/** Only plain objects: anything else (a Date, a Map, a class) may serialise its own way natively. */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function write(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new TypeError(`canonicalJson: ${value} has no JSON form.`);
    }
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form.`);
    out.push(text);
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out.push(',');
      write(value[i], out);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, the order this format promises.
  const keys = Object.keys(record).sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(item, out);
  }
  out.push('}');
}
