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
  // One string built left to right: a snapshot serialises tens of thousands of items, and
  // per-level arrays of entries cost more than the writing itself.
  const out: string[] = [];
  write(value, out);
  return out.join('');
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
